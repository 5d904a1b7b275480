import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { runActivityContract } from './activity/activity.contract.ts';
import { runLeadsContract } from './leads/leads.contract.ts';
import { runLeadsInboxContract } from './leads/leads-inbox.contract.ts';
import { runLeadsSpamContract } from './leads/leads-spam.contract.ts';
import { runLeadsAlertsContract } from './leads/leads-alerts.contract.ts';
import { runLeadsFollowUpsContract } from './leads/leads-follow-ups.contract.ts';
import { runLeadsJobValueContract } from './leads/leads-job-value.contract.ts';
import { runOwnersContract } from './owners/owners.contract.ts';
import { runPushContract } from './push/push.contract.ts';
import { runProofsOfWorkContract } from './proofs-of-work/proofs-of-work.contract.ts';
import { runReviewsContract } from './reviews/reviews.contract.ts';
import { runRateLimitsContract } from './rate-limits/rate-limits.contract.ts';
import { runSecretsContract } from './secrets/secrets.contract.ts';
import { runSiteContentContract } from './site-content/site-content.contract.ts';
import { POSTGRES_MIGRATIONS as MIGRATIONS } from './migrations.postgres.server.ts';
import { openPostgresStore } from './store-postgres.server.ts';
import { openStore } from './open-store.server.ts';
import {
  POSTGRES_SKIP_MESSAGE,
  postgresHarness,
  TEST_DATABASE_URL,
} from '../leads/testing/test-support.server.ts';

/**
 * Runs only with TEST_DATABASE_URL (see README.md in this folder). Every
 * test gets its own schema, dropped afterwards.
 */
const databaseUrl = TEST_DATABASE_URL;
if (!databaseUrl) console.warn(POSTGRES_SKIP_MESSAGE);

for (const runContract of [
  runLeadsContract,
  runLeadsInboxContract,
  runLeadsSpamContract,
  runLeadsAlertsContract,
  runLeadsFollowUpsContract,
  runLeadsJobValueContract,
  runRateLimitsContract,
  runOwnersContract,
  runActivityContract,
  runSiteContentContract,
  runSecretsContract,
  runPushContract,
  runProofsOfWorkContract,
  runReviewsContract,
]) {
  runContract('PostgreSQL', () => postgresHarness(databaseUrl), { skip: !databaseUrl });
}

describe.skipIf(!databaseUrl)('PostgreSQL store specifics', () => {
  it('openStore with DATABASE_URL picks PostgreSQL', async () => {
    const harness = await postgresHarness(databaseUrl);
    try {
      const store = await openStore({
        dataDir: '/nonexistent',
        databaseUrl,
        schema: harness.schema,
      });
      expect(store.kind).toBe('postgres');
      await store.ping();
      await store.close();
    } finally {
      await harness.cleanup();
    }
  });

  it('records each migration once even when many processes start together', async () => {
    const harness = await postgresHarness(databaseUrl);
    try {
      const stores = await Promise.all(
        Array.from({ length: 5 }, () =>
          openPostgresStore({
            connectionString: databaseUrl!,
            schema: harness.schema,
            maxConnections: 2,
          }),
        ),
      );
      await Promise.all(stores.map((store) => store.close()));
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      const { rows } = await client.query(
        `SELECT version FROM ${harness.schema}.lead_schema_migrations ORDER BY version`,
      );
      await client.end();
      expect(rows).toEqual(MIGRATIONS.map(({ version }) => ({ version })));
    } finally {
      await harness.cleanup();
    }
  });

  it('fails to open, quickly, when the database is unreachable', async () => {
    const url = new URL(databaseUrl!);
    url.port = '1';
    const started = Date.now();
    await expect(openPostgresStore({ connectionString: url.toString() })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(6000);
  });
});
