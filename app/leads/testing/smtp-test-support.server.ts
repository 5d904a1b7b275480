import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/**
 * A real SMTP server on loopback for tests (not a mocked transport):
 * `smtp-server`, by nodemailer's authors, with authentication and STARTTLS
 * on a certificate made for the test, recording every message it accepts.
 * Not a test file: imported by the lead e-mail tests and the browser suite.
 */

export interface TestCertificate {
  key: string;
  cert: string;
  /** The certificate as a file, for NODE_EXTRA_CA_CERTS in a server process. */
  certFile: string;
  remove(): void;
}

/** A self-signed certificate for 127.0.0.1 and localhost, made with openssl. */
export function makeTestCertificate(): TestCertificate {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'smtp-cert-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  return {
    key: readFileSync(keyFile, 'utf8'),
    cert: readFileSync(certFile, 'utf8'),
    certFile,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface ReceivedMail {
  /** The SMTP envelope: who it was really sent to. */
  envelope: { from: string; to: string[] };
  /** The whole message as sent. */
  raw: string;
  parsed: ParsedMail;
}

/**
 * - 'ok': accepts everything.
 * - 'reject': 550 to every recipient (a permanent refusal).
 * - 'defer': 451 to the message (try again later).
 */
export type SmtpMode = 'ok' | 'reject' | 'defer';

export interface TestSmtpServer {
  readonly port: number;
  /** SMTP_URL for the site: smtp://USER:PASSWORD@127.0.0.1:PORT. */
  readonly url: string;
  readonly user: string;
  readonly password: string;
  readonly messages: ReceivedMail[];
  mode: SmtpMode;
  /** Addresses answered 550 whatever the mode. */
  refusedRecipients: Set<string>;
  /** Whether the client switched to TLS (STARTTLS) before sending. */
  readonly secureSessions: boolean[];
  waitForMessages(count: number, timeoutMs?: number): Promise<void>;
  /** Stops listening: connections are refused until start() again, on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startSmtpServer(
  options: {
    certificate?: TestCertificate;
    user?: string;
    password?: string;
    port?: number;
  } = {},
): Promise<TestSmtpServer> {
  const user = options.user ?? 'leads@glass.example.nz';
  const password = options.password ?? 'S3cret-smtp-pass';
  const messages: ReceivedMail[] = [];
  const secureSessions: boolean[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const state = { mode: 'ok' as SmtpMode, refused: new Set<string>() };

  const serverOptions: SMTPServerOptions = {
    authMethods: ['PLAIN', 'LOGIN'],
    // Authentication only after STARTTLS when there is a certificate.
    allowInsecureAuth: !options.certificate,
    ...(options.certificate
      ? { key: options.certificate.key, cert: options.certificate.cert }
      : { disabledCommands: ['STARTTLS'] }),
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) {
        callback(null, { user: auth.username });
      } else {
        callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
      }
    },
    onRcptTo(address, _session, callback) {
      if (state.mode === 'reject' || state.refused.has(address.address.toLowerCase())) {
        callback(Object.assign(new Error('No such mailbox here'), { responseCode: 550 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (state.mode === 'defer') {
          callback(Object.assign(new Error('Greylisted, try again later'), { responseCode: 451 }));
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        secureSessions.push(session.secure);
        void simpleParser(raw).then((parsed) => {
          messages.push({
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            },
            raw,
            parsed,
          });
          for (const waiter of [...waiters]) {
            if (messages.length >= waiter.count) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve();
            }
          }
          callback();
        }, callback);
      });
    },
  };

  let server: SMTPServer | undefined;
  let port = options.port ?? 0;
  const listen = async () => {
    server = new SMTPServer(serverOptions);
    server.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      server?.once('error', reject);
      server?.listen(port, '127.0.0.1', () => resolve());
    });
    port = (server.server.address() as AddressInfo).port;
  };
  await listen();

  const smtp: TestSmtpServer = {
    get port() {
      return port;
    },
    get url() {
      return `smtp://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`;
    },
    user,
    password,
    messages,
    get mode() {
      return state.mode;
    },
    set mode(mode: SmtpMode) {
      state.mode = mode;
    },
    refusedRecipients: state.refused,
    secureSessions,
    waitForMessages(count, timeoutMs = 20_000) {
      if (messages.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`expected ${count} messages, got ${messages.length}`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    async stop() {
      const current = server;
      server = undefined;
      await new Promise<void>((resolve) => (current ? current.close(() => resolve()) : resolve()));
    },
    start: listen,
    close() {
      return smtp.stop();
    },
  };
  return smtp;
}
