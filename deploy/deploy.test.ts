import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseEnv as parseDotEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseEnv } from '../server/env.server.ts';

/**
 * The files an owner copies to a server (README "Deploying"): checked with
 * the tools that will read them, and against each other.
 */

const root = path.resolve(import.meta.dirname, '..');
const deployDir = path.join(root, 'deploy');
const unitFile = path.join(deployDir, 'glass-site.service');
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

  it.skipIf(!hasSystemdAnalyze)(
    `passes systemd-analyze verify${hasSystemdAnalyze ? '' : ' (SKIPPED: systemd-analyze is not installed)'}`,
    () => {
      // Verify checks that ExecStart exists: point it at this checkout.
      const scratch = mkdtempSync(path.join(tmpdir(), 'unit-'));
      try {
        const copy = path.join(scratch, 'glass-site.service');
        writeFileSync(copy, readFileSync(unitFile, 'utf8').replaceAll(INSTALL_DIR, root));
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
