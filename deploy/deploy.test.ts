import { spawn, spawnSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  lchownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { constants as osConstants, tmpdir } from 'node:os';
import path from 'node:path';
import { parseEnv as parseDotEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { defaultSiteContent } from '../app/content/site-content.ts';
import { openSqliteStore } from '../app/db/store-sqlite.server.ts';
import { eventually } from '../app/leads/testing/test-support.server.ts';
import { makeLead } from '../app/db/leads/leads.contract.ts';
import { leadIdsInBackup } from '../server/backup/testing/backup-test-support.server.ts';
import { createRelease, currentRelease, publishRelease } from '../server/build-releases.ts';
import { parseEnv } from '../server/env.server.ts';
import { watchServerOutput } from '../server/testing/server-output.server.ts';

/**
 * The files an owner copies to a server (README "Deploying"): checked with
 * the tools that will read them, and against each other.
 */

const root = path.resolve(import.meta.dirname, '..');
const deployDir = path.join(root, 'deploy');
const unitFile = path.join(deployDir, 'glass-site.service');
const builderUnitFile = path.join(deployDir, 'glass-site-builder.service');
const replicatorUnitFile = path.join(deployDir, 'glass-site-replicator.service');
const UNITS = [unitFile, builderUnitFile, replicatorUnitFile];
const INSTALL_DIR = '/srv/glass-site';

const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const hasSystemdAnalyze = has('systemd-analyze');
const hasCaddy = has('caddy');

const exampleEnv = parseDotEnv(
  readFileSync(path.join(deployDir, 'glass-site.env.example'), 'utf8'),
);

describe('deploy/glass-site.env.example', () => {
  it('is a valid environment: the app on loopback, believing only a local proxy', () => {
    const env = parseEnv(exampleEnv);
    expect(env.HOST).toBe('127.0.0.1');
    expect(env.TRUST_PROXY).toEqual(['loopback']);
    expect(env.SITE_URL).toMatch(/^https:\/\//);
  });

  it('holds no secret, only placeholders', () => {
    const text = readFileSync(path.join(deployDir, 'glass-site.env.example'), 'utf8');
    for (const line of text.split('\n').filter((line) => /(URL|SECRET)=/.test(line))) {
      expect(line).toMatch(/^(#|SITE_URL=https:\/\/www\.example\.co\.nz$)|CHANGE-ME/);
    }
  });
});

describe('deploy/glass-site.service', () => {
  it('starts the server from the install folder with the environment file', () => {
    const unit = readFileSync(unitFile, 'utf8');
    expect(unit).toContain(`ExecStart=${INSTALL_DIR}/node_modules/.bin/node server/start.ts`);
    expect(unit).toContain('EnvironmentFile=/etc/glass-site/env');
    expect(unit).toContain(`StateDirectory=glass-site`);
    expect(exampleEnv.DATA_DIR).toBe('/var/lib/glass-site');
  });

  it('writes only its lead store: the builds are the builder’s, and it only reads them', () => {
    // ProtectSystem=strict leaves only /var/lib/glass-site (DATA_DIR) writable.
    expect(unitValues('StateDirectory')).toEqual(['glass-site']);
    expect(unitValues('ReadWritePaths')).toEqual([]);
    expect(unitValues('ProtectSystem')).toEqual(['strict']);
    for (const key of ['BUILD_DIR', 'BUILD_CACHE_DIR']) {
      expect(exampleEnv[key], key).not.toMatch(/^\/var\/lib\/glass-site\//);
    }
    // Starting it starts the builder and the replicator too.
    expect(unitValues('Wants')).toContain(
      'network-online.target glass-site-builder.service glass-site-replicator.service',
    );
  });
});

describe('deploy/glass-site-builder.service', () => {
  it('starts the builder from the install folder with the same environment file', () => {
    const unit = readFileSync(builderUnitFile, 'utf8');
    expect(unit).toContain(`ExecStart=${INSTALL_DIR}/node_modules/.bin/node server/builder.ts`);
    expect(unitValues('EnvironmentFile', builderUnitFile)).toEqual(['/etc/glass-site/env']);
    expect(unitValues('User', builderUnitFile)).toEqual(unitValues('User'));
    expect(unitValues('Restart', builderUnitFile)).toEqual(['always']);
  });

  it('builds where it may write: everything a build writes is in its StateDirectory', () => {
    // ProtectSystem=strict leaves only its state folders writable: the
    // builds' and the lead store's, where it records each build.
    const env = parseEnv(exampleEnv);
    expect(env.SITE_PUBLISH_INTERVAL_S).toBe(10);
    expect(unitValues('StateDirectory', builderUnitFile)).toEqual(['glass-site-builds glass-site']);
    for (const key of ['BUILD_DIR', 'BUILD_CACHE_DIR']) {
      expect(exampleEnv[key], key).toMatch(/^\/var\/lib\/glass-site-builds\/[a-z]/);
    }
    expect(unitValues('ReadWritePaths', builderUnitFile)).toEqual([]);
    expect(unitValues('ProtectSystem', builderUnitFile)).toEqual(['strict']);
  });

  it('is bounded: at most one core, bounded memory, a lower priority than the web server', () => {
    expect(unitValues('CPUQuota', builderUnitFile)).toEqual(['100%']);
    expect(unitValues('MemoryMax', builderUnitFile)).toEqual(['2G']);
    expect(Number(unitValues('Nice', builderUnitFile)[0])).toBeGreaterThan(0);
    expect(unitValues('Nice')).toEqual([]);
  });

  it('has the web server’s sandbox, but for what it runs and may write', () => {
    const sandbox = (file: string) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => /^[A-Z]\w*=/.test(line))
        .filter(
          (line) =>
            !/^(Description|Wants|ExecStart|Restart|RestartSec|StateDirectory|CPUQuota|CPUWeight|MemoryHigh|MemoryMax|Nice|IOWeight)=/.test(
              line,
            ),
        );
    expect(sandbox(builderUnitFile)).toEqual(sandbox(unitFile));
  });
});

describe('deploy/glass-site-replicator.service', () => {
  it('runs the replicator from the install folder with the same environment file', () => {
    const unit = readFileSync(replicatorUnitFile, 'utf8');
    expect(unit).toContain(`ExecStart=${INSTALL_DIR}/node_modules/.bin/node server/replicator.ts`);
    expect(unitValues('EnvironmentFile', replicatorUnitFile)).toEqual(['/etc/glass-site/env']);
    expect(unitValues('User', replicatorUnitFile)).toEqual(unitValues('User'));
    // Ended with nothing to do (no BACKUP_URL), it stays stopped.
    expect(unitValues('Restart', replicatorUnitFile)).toEqual(['on-failure']);
    // Litestream's copy of the log is kept beside the store.
    expect(unitValues('StateDirectory', replicatorUnitFile)).toEqual(['glass-site']);
    expect(unitValues('ReadWritePaths', replicatorUnitFile)).toEqual([]);
  });

  it('has the web server’s sandbox, but for what it runs', () => {
    const sandbox = (file: string) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => /^[A-Z]\w*=/.test(line))
        .filter(
          (line) =>
            !/^(Description|After|Wants|ExecStart|TimeoutStopSec|Restart|RestartSec)=/.test(line),
        );
    expect(sandbox(replicatorUnitFile)).toEqual(sandbox(unitFile));
  });

  it('keeps the backup settings commented out in the example, the secret a placeholder', () => {
    const text = readFileSync(path.join(deployDir, 'glass-site.env.example'), 'utf8');
    expect(text).toMatch(/^#BACKUP_URL=file:\/\/\//m);
    expect(text).toMatch(/^#BACKUP_S3_SECRET_ACCESS_KEY=CHANGE-ME$/m);
    expect(parseEnv(exampleEnv).BACKUP_URL).toBeUndefined();
  });
});

describe.each(UNITS.map((file) => [path.basename(file), file]))('deploy/%s', (name, file) => {
  it.skipIf(!hasSystemdAnalyze)(
    `passes systemd-analyze verify${hasSystemdAnalyze ? '' : ' (SKIPPED: systemd-analyze is not installed)'}`,
    () => {
      // Verify checks that ExecStart exists: point it at this checkout.
      const scratch = mkdtempSync(path.join(tmpdir(), 'unit-'));
      try {
        const copy = path.join(scratch, name);
        writeFileSync(copy, readFileSync(file, 'utf8').replaceAll(INSTALL_DIR, root));
        const result = spawnSync('systemd-analyze', ['verify', copy], { encoding: 'utf8' });
        // Unknown keys are only warnings (exit 0), so any output is a failure too.
        expect(`${result.stdout}${result.stderr}`.trim()).toBe('');
        expect(result.status).toBe(0);
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    },
  );
});

/** Every value the unit (the web server's by default) gives `key`, in order. */
function unitValues(key: string, file = unitFile): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith(`${key}=`))
    .map((line) => line.slice(key.length + 1).trim());
}

const MAX_EXPOSURE = 2.0;

/** The system calls a systemd group (`@name`) holds, nested groups expanded. */
function syscallsOf(name: string, seen = new Map<string, string[]>()): string[] {
  if (!name.startsWith('@')) return [name];
  const known = seen.get(name);
  if (known) return known;
  const listed = spawnSync('systemd-analyze', ['syscall-filter', name], { encoding: 'utf8' });
  if (listed.status !== 0)
    throw new Error(`systemd-analyze syscall-filter ${name}: ${listed.stderr}`);
  const members = listed.stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#') && line !== name);
  const calls = members.flatMap((member) => syscallsOf(member, seen));
  seen.set(name, calls);
  return calls;
}

/** The system calls the unit's SystemCallFilter= lines allow (an allow-list, then `~` removals). */
function allowedSyscalls(file: string): string[] {
  const allowed = new Set<string>();
  const [first, ...rest] = unitValues('SystemCallFilter', file);
  if (!first || first.startsWith('~')) throw new Error('expected an allow-list first');
  for (const entry of first.split(/\s+/)) for (const call of syscallsOf(entry)) allowed.add(call);
  for (const line of rest) {
    if (!line.startsWith('~')) throw new Error(`expected removals only: ${line}`);
    for (const entry of line.slice(1).trim().split(/\s+/)) {
      for (const call of syscallsOf(entry)) allowed.delete(call);
    }
  }
  return [...allowed];
}

/**
 * Loads a seccomp filter with libseccomp (Python's ctypes, so nothing is
 * compiled), takes the service's user, then runs the command. The filter is
 * systemd's: the listed calls are allowed, `socket` only for the listed
 * families, anything else fails with the given errno; other architectures
 * are refused (libseccomp's default, SystemCallArchitectures=native).
 * libseccomp sets no_new_privs (NoNewPrivileges=yes). The unit's Nice= is
 * applied before the user changes.
 */
const SANDBOX_LOADER = `
import ctypes, os, sys
env = os.environ
calls = env.pop('SANDBOX_SYSCALLS').split()
families = [int(f) for f in env.pop('SANDBOX_FAMILIES').split()]
errno = int(env.pop('SANDBOX_ERRNO'))
uid = int(env.pop('SANDBOX_UID'))
mdwe = env.pop('SANDBOX_MDWE') == 'yes'
nice = int(env.pop('SANDBOX_NICE') or '0')
class Cmp(ctypes.Structure):
    _fields_ = [('arg', ctypes.c_uint), ('op', ctypes.c_int), ('a', ctypes.c_uint64), ('b', ctypes.c_uint64)]
lib = ctypes.CDLL('libseccomp.so.2')
lib.seccomp_init.restype = ctypes.c_void_p
lib.seccomp_init.argtypes = [ctypes.c_uint32]
lib.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint, ctypes.POINTER(Cmp)]
lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
lib.seccomp_load.argtypes = [ctypes.c_void_p]
ALLOW, ERRNO = 0x7fff0000, 0x00050000 | errno
ctx = lib.seccomp_init(ERRNO)
socket = lib.seccomp_syscall_resolve_name(b'socket')
for name in calls:
    nr = lib.seccomp_syscall_resolve_name(name.encode())
    if nr < 0 or nr == socket:
        continue
    if lib.seccomp_rule_add_array(ctx, ALLOW, nr, 0, None) != 0:
        sys.exit('cannot allow ' + name)
if 'socket' in calls:
    for family in families:
        if lib.seccomp_rule_add_array(ctx, ALLOW, socket, 1, (Cmp * 1)(Cmp(0, 4, family, 0))) != 0:
            sys.exit('cannot allow socket family %d' % family)
if nice:
    os.nice(nice)
os.setgroups([])
os.setresgid(uid, uid, uid)
os.setresuid(uid, uid, uid)
if mdwe and ctypes.CDLL(None).prctl(65, 1, 0, 0, 0) != 0:
    sys.exit('cannot deny write-and-execute memory')
if lib.seccomp_load(ctx) != 0:
    sys.exit('cannot load the filter')
os.execv(sys.argv[1], sys.argv[1:])
`;

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
const hasSandboxTools =
  isRoot &&
  hasSystemdAnalyze &&
  has('unshare') &&
  spawnSync('python3', ['-c', "import ctypes; ctypes.CDLL('libseccomp.so.2')"]).status === 0;
const sandboxSkip = hasSandboxTools
  ? ''
  : ' (SKIPPED: needs root, systemd-analyze, unshare, python3 and libseccomp)';

/** The web server's StateDirectory=, its one writable place: the lead store (DATA_DIR). */
const STATE_DIR = `/var/lib/${unitValues('StateDirectory')[0]}`;
/** The builder's own StateDirectory=, where the builds are (BUILD_DIR, BUILD_CACHE_DIR). */
const BUILDS_DIR = `/var/lib/${unitValues('StateDirectory', builderUnitFile)[0]!.split(/\s+/)[0]}`;

/**
 * The service's file system, made in the sandbox's own mount namespace
 * before the user changes (nothing outside the namespace sees it):
 * - /proc mounted as ProtectProc= and ProcSubset= say;
 * - the project at INSTALL_DIR, as installed (deploy/README.md): every
 *   entry of the checkout bound read-only (ProtectSystem=strict), and
 *   `.astro` a link into the state folder. Bound, not reached through the
 *   checkout's own path, so the user nobody runs it from any clone, even
 *   one under a folder only its owner may enter;
 * - the state folders (SANDBOX_STATES: `name host-folder rw|ro` lines)
 *   bound at /var/lib/<name>: the lead store (DATA_DIR) and the builds
 *   (BUILD_DIR, BUILD_CACHE_DIR), writable where the unit's
 *   StateDirectory= names them and read-only elsewhere (ProtectSystem=strict),
 *   on a tmpfs hiding the rest of /var/lib (a mount needs a folder);
 * - a /tmp of its own (PrivateTmp=).
 */
const SANDBOX_MOUNTS = `
set -e
mount -t proc -o "$SANDBOX_PROC_OPTIONS" proc /proc
mount -t tmpfs -o mode=0755 tmpfs "\${SANDBOX_INSTALL_DIR%/*}"
mkdir "$SANDBOX_INSTALL_DIR"
for entry in "$SANDBOX_PROJECT"/* "$SANDBOX_PROJECT"/.[!.]*; do
  [ -e "$entry" ] || continue
  name="\${entry##*/}"
  [ "$name" = .astro ] && continue
  if [ -d "$entry" ]; then mkdir "$SANDBOX_INSTALL_DIR/$name"; else : > "$SANDBOX_INSTALL_DIR/$name"; fi
  mount --bind -o ro "$entry" "$SANDBOX_INSTALL_DIR/$name"
done
ln -s "$SANDBOX_ASTRO_DIR" "$SANDBOX_INSTALL_DIR/.astro"
mount -o remount,ro "\${SANDBOX_INSTALL_DIR%/*}"
mount -t tmpfs -o mode=0755 tmpfs /var/lib
echo "$SANDBOX_STATES" | while read -r name host mode; do
  [ -n "$name" ] || continue
  mkdir -m 0700 "/var/lib/$name"
  [ "$host" = - ] && continue
  mount --bind "$host" "/var/lib/$name"
  if [ "$mode" = ro ]; then mount -o remount,bind,ro "/var/lib/$name"; fi
done
mount -t tmpfs -o mode=1777 tmpfs /tmp
cd "$SANDBOX_INSTALL_DIR"
exec python3 -c "$SANDBOX_LOADER" "$@"
`;

/** A unit's command line, run from INSTALL_DIR inside the sandbox. */
const execStartOf = (file: string) => unitValues('ExecStart', file)[0]!.split(/\s+/);
const execStart = execStartOf(unitFile);
const sandboxNode = execStart[0]!;

interface SandboxOptions {
  /** The unit whose settings apply (the web server's by default). */
  unit?: string;
  /** The lead store's folder on this machine (STATE_DIR inside); none: an empty one. */
  state?: string;
  /** The builds' folder on this machine (BUILDS_DIR inside); none: an empty one. */
  builds?: string;
  /** The checkout to install (this one by default). */
  project?: string;
}

/**
 * `command` as the unit runs it, as far as that can be done without systemd
 * as PID 1: in a mount namespace of its own with the service's file system
 * (SANDBOX_MOUNTS), as the user nobody, under the unit's system-call
 * filter, address families and MemoryDenyWriteExecute=.
 */
function spawnSandboxed(
  command: string[],
  env: Record<string, string>,
  options: SandboxOptions = {},
) {
  const unit = options.unit ?? unitFile;
  const values = (key: string) => unitValues(key, unit);
  const familyNumbers: Record<string, number> = { AF_UNIX: 1, AF_INET: 2, AF_INET6: 10 };
  const families = values('RestrictAddressFamilies').flatMap((line) => line.split(/\s+/));
  const hidepid = values('ProtectProc')[0] ?? 'default';
  const subset = values('ProcSubset')[0] === 'pid' ? ',subset=pid' : '';
  const errnoName = values('SystemCallErrorNumber')[0] ?? 'EPERM';
  // Writable: the unit's StateDirectory= folders; the others read-only.
  const writable = new Set(values('StateDirectory').flatMap((line) => line.split(/\s+/)));
  const states = [
    [STATE_DIR, options.state],
    [BUILDS_DIR, options.builds],
  ].map(([dir, host]) => {
    const name = path.basename(dir!);
    return `${name} ${host ?? '-'} ${writable.has(name) ? 'rw' : 'ro'}`;
  });
  const errno = osConstants.errno[errnoName as keyof typeof osConstants.errno];
  return spawn(
    'unshare',
    ['--mount', '--propagation', 'private', 'sh', '-c', SANDBOX_MOUNTS, 'sandbox', ...command],
    {
      cwd: '/',
      env: {
        PATH: process.env.PATH,
        // Nobody's home, which does not exist: nothing may be written there.
        HOME: '/nonexistent',
        SANDBOX_PROC_OPTIONS: `hidepid=${hidepid === 'default' ? 'off' : hidepid}${subset}`,
        SANDBOX_PROJECT: options.project ?? root,
        SANDBOX_INSTALL_DIR: INSTALL_DIR,
        SANDBOX_ASTRO_DIR: `${BUILDS_DIR}/astro`,
        SANDBOX_STATES: states.join('\n'),
        SANDBOX_LOADER,
        SANDBOX_SYSCALLS: allowedSyscalls(unit).join(' '),
        SANDBOX_FAMILIES: families.map((family) => String(familyNumbers[family])).join(' '),
        SANDBOX_ERRNO: String(errno),
        SANDBOX_UID: String(NOBODY),
        SANDBOX_MDWE: values('MemoryDenyWriteExecute')[0] ?? 'no',
        SANDBOX_NICE: values('Nice')[0] ?? '',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
}

/** Runs `command` in the sandbox to its end; its output. */
async function runSandboxed(
  command: string[],
  options: SandboxOptions = {},
): Promise<{ code: number | null; output: string }> {
  const child = spawnSandboxed(command, {}, options);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, output };
}

/** What a sandboxed process shows of its sandbox. */
const PROBE = `const fs = require('node:fs');
  let setPriority = 'allowed';
  try { require('node:os').setPriority(19); } catch (error) { setPriority = error.info?.code ?? error.code; }
  const writable = (file) => { try { fs.closeSync(fs.openSync(file, 'wx')); fs.rmSync(file); return true; } catch (error) { return error.code; } };
  console.log(JSON.stringify({ setPriority, self: fs.existsSync('/proc/' + process.pid),
    init: fs.existsSync('/proc/1'), cpuinfo: fs.existsSync('/proc/cpuinfo'), uid: process.getuid(),
    cwd: process.cwd(), project: writable('.sandbox-probe'), state: writable('${STATE_DIR}/probe'),
    builds: writable('${BUILDS_DIR}/probe'), nice: require('node:os').getPriority() }));`;

/** Gives the state folder, and everything in it, to the service's user (StateDirectory=). */
function giveToService(dir: string) {
  chownSync(dir, NOBODY, NOBODY);
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    lchownSync(path.join(dir, entry), NOBODY, NOBODY);
  }
}

/** The business name the owner publishes in the sandboxed run. */
const PUBLISHED_NAME = 'Sandbox Glass Tauranga';

describe('deploy/glass-site.service and glass-site-builder.service hardening', () => {
  it.skipIf(!hasSystemdAnalyze).each(UNITS.map((file) => path.basename(file)))(
    `%s scores ${MAX_EXPOSURE.toFixed(1)} or lower in systemd-analyze security${hasSystemdAnalyze ? '' : ' (SKIPPED: systemd-analyze is not installed)'}`,
    (name) => {
      const result = spawnSync(
        'systemd-analyze',
        ['security', '--offline=yes', path.join(deployDir, name)],
        { encoding: 'utf8' },
      );
      const score = new RegExp(`Overall exposure level for ${name}: ([\\d.]+)`).exec(result.stdout);
      expect(score, `${result.stdout}${result.stderr}`).not.toBeNull();
      expect(Number(score![1])).toBeLessThanOrEqual(MAX_EXPOSURE);
    },
  );

  it('leaves memory that is writable and then executable to V8 (MemoryDenyWriteExecute)', () => {
    // Node aborts at start without it (V8's just-in-time compiler); the
    // sandboxed runs below apply the units' setting, so they would fail too.
    for (const file of UNITS) expect(unitValues('MemoryDenyWriteExecute', file)).toEqual([]);
  });

  it.skipIf(!hasSandboxTools)(
    `runs the unit's command from a checkout under a folder only its owner may enter${sandboxSkip}`,
    async () => {
      // mkdtemp makes the folder 0700, as /root is: nobody cannot pass it.
      const parent = mkdtempSync(path.join(tmpdir(), 'private-'));
      try {
        expect(statSync(parent).mode & 0o777).toBe(0o700);
        const checkout = path.join(parent, 'glass-site');
        symlinkSync(root, checkout);
        const probe = await runSandboxed([sandboxNode, '-e', PROBE], { project: checkout });
        expect(probe.code, probe.output).toBe(0);
        expect(JSON.parse(probe.output)).toMatchObject({ uid: NOBODY, cwd: INSTALL_DIR });
      } finally {
        rmSync(parent, { recursive: true, force: true });
      }
    },
  );

  it.skipIf(!hasSandboxTools)(
    `the server runs, stores a lead and delivers its webhook, and the builder builds what the owner publishes, each under its unit's sandbox${sandboxSkip}`,
    async () => {
      const scratch = mkdtempSync(path.join(tmpdir(), 'sandbox-'));
      const hook = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.end();
          delivered();
        });
      });
      let delivered!: () => void;
      const webhookArrived = new Promise<void>((resolve) => (delivered = resolve));
      const started: ReturnType<typeof spawnSandboxed>[] = [];
      try {
        // The sandboxes are in force: a call outside the filter fails
        // (setpriority, in @resources), /proc shows no process of another
        // user (init) and no /proc/cpuinfo, the project is read-only; the
        // web server may write its lead store only, the builder the builds
        // too, at a lower priority.
        const state = path.join(scratch, 'state');
        const builds = path.join(scratch, 'builds');
        for (const dir of [state, builds]) {
          mkdirSync(dir, { mode: 0o700 });
          giveToService(dir);
        }
        const probed = {
          setPriority: 'EPERM',
          self: true,
          init: false,
          cpuinfo: false,
          uid: NOBODY,
          cwd: INSTALL_DIR,
          project: 'EROFS',
          state: true,
        };
        const webProbe = await runSandboxed([sandboxNode, '-e', PROBE], { state, builds });
        expect(webProbe.code, webProbe.output).toBe(0);
        expect(JSON.parse(webProbe.output)).toEqual({ ...probed, builds: 'EROFS', nice: 0 });
        const builderProbe = await runSandboxed([sandboxNode, '-e', PROBE], {
          unit: builderUnitFile,
          state,
          builds,
        });
        expect(builderProbe.code, builderProbe.output).toBe(0);
        expect(JSON.parse(builderProbe.output)).toEqual({
          ...probed,
          builds: true,
          nice: Number(unitValues('Nice', builderUnitFile)[0]),
        });

        // The environment file's folders, as this machine sees them.
        const onHost = (file: string) =>
          file.startsWith(`${BUILDS_DIR}/`)
            ? path.join(builds, path.relative(BUILDS_DIR, file))
            : path.join(state, path.relative(STATE_DIR, file));
        // A release the server can start from: a stand-in server bundle and a page.
        const buildDir = onHost(exampleEnv.BUILD_DIR!);
        const release = createRelease(buildDir);
        mkdirSync(path.join(release, 'client'));
        writeFileSync(path.join(release, 'client/index.html'), 'home');
        mkdirSync(path.join(release, 'server'));
        writeFileSync(
          path.join(release, 'server/entry.mjs'),
          "export function handler(_req, res) { res.statusCode = 404; res.end('not found'); }\n",
        );
        publishRelease(buildDir, release);
        // What an owner published on /admin/site: the builder builds it at start.
        const dataDir = onHost(exampleEnv.DATA_DIR!);
        const store = await openSqliteStore({ dataDir });
        const { version } = await store.createSiteContentVersion(
          {
            ...defaultSiteContent,
            identity: { ...defaultSiteContent.identity, name: PUBLISHED_NAME },
          },
          null,
        );
        await store.close();
        for (const dir of [state, builds]) giveToService(dir);
        await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
        const hookPort = (hook.address() as { port: number }).port;

        const env = {
          HOST: '127.0.0.1',
          PORT: '0',
          SITE_URL: 'http://localhost',
          BUILD_DIR: exampleEnv.BUILD_DIR!,
          BUILD_CACHE_DIR: exampleEnv.BUILD_CACHE_DIR!,
          DATA_DIR: exampleEnv.DATA_DIR!,
          LEAD_WEBHOOK_URLS: `http://127.0.0.1:${hookPort}/hook`,
          LOG_LEVEL: 'info',
        };
        const server = spawnSandboxed(execStart, env, { state, builds });
        started.push(server);
        const printed = watchServerOutput(server);
        const port = await printed.port;
        const base = `http://127.0.0.1:${port}`;
        expect((await fetch(`${base}/`)).status, printed.text()).toBe(200);
        expect((await fetch(`${base}/healthz`)).status, printed.text()).toBe(200);
        const posted = await fetch(`${base}/api/leads`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            name: 'Aroha Ngata',
            email: 'aroha@example.co.nz',
            phone: '021 555 0101',
            service: 'Windows',
            message: 'Cracked pane',
            source: 'contact_form',
          }),
        });
        expect(posted.status, printed.text()).toBe(201);
        await webhookArrived;

        // The publish's build runs in the builder's sandbox, as the
        // builder's child; the server, in its own, serves the release it made.
        const builder = spawnSandboxed(execStartOf(builderUnitFile), env, {
          unit: builderUnitFile,
          state,
          builds,
        });
        started.push(builder);
        let builderOutput = '';
        builder.stdout.on('data', (chunk: Buffer) => (builderOutput += chunk.toString()));
        builder.stderr.on('data', (chunk: Buffer) => (builderOutput += chunk.toString()));
        await eventually(
          () =>
            expect(builderOutput).toMatch(
              new RegExp(`built content version ${version} in|site build failed`),
            ),
          240_000,
        );
        expect(builderOutput).toContain(`built content version ${version} in`);
        const switched = `site switched to content version ${version}`;
        await eventually(
          () =>
            expect(printed.text()).toMatch(new RegExp(`${switched}|cannot serve the new build`)),
          60_000,
        );
        expect(printed.text()).toContain(switched);
        const home = await (await fetch(`${base}/`)).text();
        expect(home).toContain(PUBLISHED_NAME);
        const built = currentRelease(buildDir)!;
        expect(built).not.toBe(release);
        expect(existsSync(path.join(built, 'client/index.html'))).toBe(true);
        expect(statSync(built).uid).toBe(NOBODY);
        // Nothing either process or the build tried was refused in a way it logged.
        for (const output of [printed.text(), builderOutput]) {
          expect(output).not.toMatch(/EPERM|EAFNOSUPPORT|EROFS|EACCES|operation not permitted/i);
        }

        for (const child of started.splice(0)) {
          const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
          child.kill('SIGTERM');
          await exited;
        }
        const after = await openSqliteStore({ dataDir });
        try {
          expect(await after.siteContentVersion(version)).toMatchObject({ state: 'live' });
        } finally {
          await after.close();
        }
      } finally {
        for (const child of started) {
          if (child.exitCode !== null || child.signalCode !== null) continue;
          const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
          child.kill('SIGTERM');
          await exited;
        }
        hook.close();
        rmSync(scratch, { recursive: true, force: true });
      }
    },
    300_000,
  );

  it.skipIf(!hasSandboxTools)(
    `the replicator backs up the store under its unit's sandbox, and the web server's can restore it${sandboxSkip}`,
    async () => {
      const scratch = mkdtempSync(path.join(tmpdir(), 'sandbox-backup-'));
      let replicator: ReturnType<typeof spawnSandboxed> | undefined;
      try {
        const state = path.join(scratch, 'state');
        mkdirSync(state, { mode: 0o700 });
        const dataDir = path.join(state, path.relative(STATE_DIR, exampleEnv.DATA_DIR!));
        const store = await openSqliteStore({ dataDir });
        const lead = makeLead();
        await store.insertLead(lead, []);
        await store.close();
        giveToService(state);
        // A file:// backup where the unit may write (on a real server, a
        // folder given with ReadWritePaths=).
        const backupInside = `${STATE_DIR}/backup`;
        replicator = spawnSandboxed(
          execStartOf(replicatorUnitFile),
          {
            DATA_DIR: exampleEnv.DATA_DIR!,
            BACKUP_URL: `file://${backupInside}`,
            LOG_LEVEL: 'info',
          },
          { unit: replicatorUnitFile, state },
        );
        let output = '';
        replicator.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
        replicator.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
        const backupOnHost = path.join(state, 'backup');
        await eventually(
          () =>
            expect(
              existsSync(backupOnHost)
                ? readdirSync(backupOnHost, { recursive: true }).map(String)
                : [],
              output,
            ).toContainEqual(expect.stringMatching(/\.wal\.lz4$/)),
          60_000,
          200,
        );
        // The web server's daily check runs Litestream's restore under its own unit.
        const restored = await runSandboxed(
          [
            `${INSTALL_DIR}/node_modules/@flydotio/litestream-linux-x64/litestream`,
            'restore',
            '-o',
            '/tmp/restored.sqlite',
            `file://${backupInside}`,
          ],
          { state },
        );
        expect(restored.code, restored.output).toBe(0);
        const ids = await leadIdsInBackup(
          path.join(dataDir, 'leads.sqlite'),
          { kind: 'file', path: backupOnHost },
          path.join(scratch, 'check'),
        );
        expect(ids).toEqual([lead.id]);
        expect(output).not.toMatch(/EPERM|EAFNOSUPPORT|EROFS|EACCES|operation not permitted/i);
        const exited = new Promise<void>((resolve) => replicator!.once('exit', () => resolve()));
        replicator.kill('SIGTERM');
        await exited;
        expect(replicator.exitCode).toBe(0);
      } finally {
        if (replicator && replicator.exitCode === null && replicator.signalCode === null) {
          replicator.kill('SIGKILL');
        }
        rmSync(scratch, { recursive: true, force: true });
      }
    },
    120_000,
  );
});

/** The file's own defaults, whatever the calling shell has set. */
function withoutCaddyPlaceholders(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.SITE_DOMAIN;
  delete env.GLASS_UPSTREAM;
  return env;
}

describe('deploy/Caddyfile', () => {
  it.skipIf(!hasCaddy)(
    `proxies to the app's loopback port and leaves compression to the app${hasCaddy ? '' : ' (SKIPPED: caddy is not installed)'}`,
    () => {
      const result = spawnSync(
        'caddy',
        ['adapt', '--config', path.join(deployDir, 'Caddyfile'), '--adapter', 'caddyfile'],
        { encoding: 'utf8', env: withoutCaddyPlaceholders() },
      );
      expect(result.status, result.stderr).toBe(0);
      const config = result.stdout;
      expect(config).toContain(`"dial":"127.0.0.1:${exampleEnv.PORT}"`);
      expect(config).toContain('"handler":"reverse_proxy"');
      // The app sends brotli/gzip itself: Caddy must not compress again.
      expect(config).not.toContain('"handler":"encode"');
    },
  );
});
