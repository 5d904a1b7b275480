import type { Migration } from './migration.server.ts';

/*
 * The SQLite store's migrations: the one list of this engine, applied in
 * order when the store opens (store-sqlite.server.ts). The other engine's list
 * (migrations.postgres.server.ts) makes the same schema;
 * store-schema.server.test.ts holds the two to one.
 */

export const SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'leads and deliveries',
    sql: `
      CREATE TABLE leads (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        email TEXT NOT NULL,
        phone TEXT NOT NULL,
        service TEXT NOT NULL,
        message TEXT NOT NULL,
        created_at TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('hero_form', 'contact_form', 'quote_form')),
        status TEXT NOT NULL CHECK (status IN ('received', 'accepted', 'not_accepted', 'spam')),
        idempotency_key TEXT UNIQUE
      ) STRICT;
      CREATE INDEX leads_created_at ON leads (created_at);
      CREATE INDEX leads_status ON leads (status);

      CREATE TABLE lead_deliveries (
        lead_id TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
        url TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed', 'not_sent')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT,
        last_error TEXT,
        delivered_at TEXT,
        lease_owner TEXT,
        lease_expires_at TEXT,
        position INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (lead_id, url)
      ) STRICT;
      CREATE INDEX lead_deliveries_due ON lead_deliveries (state, next_attempt_at);
    `,
  },
  {
    // Delivery rows name their target by key and label, never by a webhook's
    // address (it may hold a token); 'cancelled' for removed targets; leads
    // found by e-mail for Privacy Act requests. lead_webhook_key/label are
    // registered by the store; version 5 turns the keys into positions.
    version: 2,
    name: 'delivery targets by key and label',
    sql: `
      CREATE TABLE lead_deliveries_v2 (
        lead_id TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
        target TEXT NOT NULL,
        label TEXT NOT NULL,
        state TEXT NOT NULL
          CHECK (state IN ('pending', 'delivered', 'failed', 'not_sent', 'cancelled')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT,
        last_error TEXT,
        delivered_at TEXT,
        lease_owner TEXT,
        lease_expires_at TEXT,
        position INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (lead_id, target)
      ) STRICT;
      INSERT INTO lead_deliveries_v2
        SELECT lead_id, lead_webhook_key(url), lead_webhook_label(url, position), state,
               attempts, next_attempt_at, last_error, delivered_at, lease_owner,
               lease_expires_at, position
        FROM lead_deliveries;
      DROP TABLE lead_deliveries;
      ALTER TABLE lead_deliveries_v2 RENAME TO lead_deliveries;
      CREATE INDEX lead_deliveries_due ON lead_deliveries (state, next_attempt_at);
      CREATE INDEX leads_email ON leads (email);
    `,
  },
  {
    // Shared by every process on the store (PostgreSQL; SQLite keeps the
    // same table so the two schemas stay one). Keys are hashed client addresses.
    version: 3,
    name: 'rate limit counts',
    sql: `
      CREATE TABLE lead_rate_limits (
        key TEXT NOT NULL PRIMARY KEY,
        hits INTEGER NOT NULL,
        reset_at TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    // A delivery row is one B-tree entry, keyed by lead and target, instead
    // of a rowid table plus the primary key's index; and the due index holds
    // pending rows only, as PostgreSQL's always has. A lead with a target
    // then writes two pages fewer in its fsynced commit (what the
    // e-mail target costs a saturated server).
    version: 4,
    name: 'deliveries keyed by lead and target, due index on pending rows',
    sql: `
      CREATE TABLE lead_deliveries_v4 (
        lead_id TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
        target TEXT NOT NULL,
        label TEXT NOT NULL,
        state TEXT NOT NULL
          CHECK (state IN ('pending', 'delivered', 'failed', 'not_sent', 'cancelled')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT,
        last_error TEXT,
        delivered_at TEXT,
        lease_owner TEXT,
        lease_expires_at TEXT,
        position INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (lead_id, target)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO lead_deliveries_v4
        SELECT lead_id, target, label, state, attempts, next_attempt_at, last_error,
               delivered_at, lease_owner, lease_expires_at, position
        FROM lead_deliveries;
      DROP TABLE lead_deliveries;
      ALTER TABLE lead_deliveries_v4 RENAME TO lead_deliveries;
      CREATE INDEX lead_deliveries_due ON lead_deliveries (next_attempt_at) WHERE state = 'pending';
    `,
  },
  {
    // A webhook is named by its position alone (webhooks.server.ts): labels
    // such as 'webhook 2 (hooks.example.com)' lose the host, which may carry
    // a token, and the key 'webhook:<hash of the address>' becomes
    // 'webhook:2', so pending deliveries follow the address now at their
    // position. The position is the label's ('webhook 2 …'), else the row's.
    version: 5,
    name: 'webhooks keyed and labelled by position only',
    sql: `
      UPDATE lead_deliveries SET label = 'webhook ' || (position + 1)
        WHERE target LIKE 'webhook:%' AND label NOT GLOB 'webhook [1-9]*';
      UPDATE lead_deliveries SET label = 'webhook ' || CAST(substr(label, 9) AS INTEGER)
        WHERE target LIKE 'webhook:%';
      UPDATE lead_deliveries SET target = 'webhook:' || substr(label, 9)
        WHERE target LIKE 'webhook:%';
    `,
  },
  {
    // GET /healthz commits a write to this one row (checkWritable): a store
    // that answers reads but cannot commit a lead is reported as such.
    version: 6,
    name: 'store heartbeat',
    sql: `
      CREATE TABLE lead_store_heartbeat (
        id INTEGER PRIMARY KEY,
        beat_at TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    // What the owner keeps with a lead (docs/operations.md#lead-record): its stage
    // and a private note, and a revision counting their saves, so two
    // owners' saves never silently overwrite each other.
    version: 7,
    name: 'lead stage and note',
    sql: `
      ALTER TABLE leads ADD COLUMN stage TEXT NOT NULL DEFAULT 'new'
        CHECK (stage IN ('new', 'contacted', 'quoted', 'won', 'lost', 'spam'));
      ALTER TABLE leads ADD COLUMN note TEXT NOT NULL DEFAULT '';
      ALTER TABLE leads ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX leads_stage ON leads (stage, created_at);
    `,
  },
  {
    // The owner's pages (docs/operations.md#owners-pages): owners added from the
    // server, their passkeys as SimpleWebAuthn gives them (credential id as
    // base64url text, public key bytes, counter, transports as JSON text),
    // sessions and one-time links stored by the SHA-256 hash of their random
    // secret only, and the activity list, which holds no lead's personal data.
    version: 8,
    name: 'owners, passkeys, sessions, links and activity',
    sql: `
      CREATE TABLE owners (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL UNIQUE,
        webauthn_user_id TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        removed_at TEXT,
        last_sign_in_at TEXT,
        inbox_seen_at TEXT
      ) STRICT;

      CREATE TABLE owner_passkeys (
        id TEXT PRIMARY KEY,
        owner_id TEXT NOT NULL REFERENCES owners (id) ON DELETE CASCADE,
        public_key BLOB NOT NULL,
        counter INTEGER NOT NULL DEFAULT 0,
        transports TEXT NOT NULL DEFAULT '[]',
        name TEXT NOT NULL,
        created_at TEXT NOT NULL,
        last_used_at TEXT
      ) STRICT;
      CREATE INDEX owner_passkeys_owner ON owner_passkeys (owner_id);

      CREATE TABLE owner_sessions (
        id_hash TEXT PRIMARY KEY,
        owner_id TEXT NOT NULL REFERENCES owners (id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX owner_sessions_owner ON owner_sessions (owner_id);
      CREATE INDEX owner_sessions_expires ON owner_sessions (expires_at);

      CREATE TABLE owner_links (
        token_hash TEXT PRIMARY KEY,
        owner_id TEXT NOT NULL REFERENCES owners (id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('setup', 'sign-in')),
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX owner_links_owner ON owner_links (owner_id, kind);
      CREATE INDEX owner_links_expires ON owner_links (expires_at);

      CREATE TABLE owner_activity (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        detail TEXT NOT NULL DEFAULT ''
      ) STRICT;
    `,
  },
  {
    // Passkey ceremonies' challenges (docs/operations.md#owners-pages): kept in the
    // store so any server process can finish a ceremony another began; only
    // their hash, single use, 5 minutes.
    version: 9,
    name: 'passkey challenges',
    sql: `
      CREATE TABLE owner_challenges (
        challenge_hash TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('registration', 'authentication')),
        owner_id TEXT REFERENCES owners (id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX owner_challenges_expires ON owner_challenges (expires_at);
    `,
  },
  {
    // Urgent enquiries (docs/operations.md#urgent-enquiries): the visitor's
    // "Glass broken now" choice; every earlier lead was not urgent.
    version: 10,
    name: 'urgent leads',
    sql: `
      ALTER TABLE leads ADD COLUMN urgent INTEGER NOT NULL DEFAULT 0 CHECK (urgent = 0 OR urgent = 1);
    `,
  },
  {
    // Photos with an enquiry (docs/operations.md#photos-with-an-enquiry): the
    // JPEG as made safe, stored with its lead and deleted with it.
    version: 11,
    name: 'lead photos',
    sql: `
      CREATE TABLE lead_photos (
        lead_id TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
        position INTEGER NOT NULL CHECK (position >= 0),
        data BLOB NOT NULL,
        width INTEGER NOT NULL CHECK (width > 0),
        height INTEGER NOT NULL CHECK (height > 0),
        byte_size INTEGER NOT NULL CHECK (byte_size = length(data)),
        PRIMARY KEY (lead_id, position)
      ) STRICT;
    `,
  },
  {
    // The site's editable content (docs/operations.md#site-content): every
    // published version whole, as JSON, with its publishing state; the
    // owner's draft, one row per section with a revision, so two owners'
    // saves never silently overwrite each other; the photos of real jobs.
    version: 12,
    name: 'site content versions, draft and photos',
    sql: `
      CREATE TABLE site_content_versions (
        version INTEGER PRIMARY KEY,
        content TEXT NOT NULL CHECK (json_valid(content)),
        created_at TEXT NOT NULL,
        created_by TEXT REFERENCES owners (id),
        restored_from INTEGER REFERENCES site_content_versions (version),
        state TEXT NOT NULL CHECK (state IN ('publishing', 'live', 'failed')),
        error TEXT,
        live_at TEXT
      ) STRICT;
      CREATE INDEX site_content_versions_live ON site_content_versions (version)
        WHERE state = 'live';

      CREATE TABLE site_content_draft (
        section TEXT PRIMARY KEY,
        content TEXT NOT NULL CHECK (json_valid(content)),
        revision INTEGER NOT NULL CHECK (revision > 0),
        updated_at TEXT NOT NULL,
        updated_by TEXT REFERENCES owners (id)
      ) STRICT;

      CREATE TABLE site_photos (
        id TEXT PRIMARY KEY,
        bytes BLOB NOT NULL,
        width INTEGER NOT NULL CHECK (width > 0),
        height INTEGER NOT NULL CHECK (height > 0),
        created_at TEXT NOT NULL,
        created_by TEXT REFERENCES owners (id)
      ) STRICT;
    `,
  },
  {
    // The store's own secrets (getOrCreateSecret): made once with random
    // bytes by whichever process asks first, then the same for every
    // process, such as the key of the signed photo links
    // (docs/operations.md#webhook-payload).
    version: 13,
    name: 'store secrets',
    sql: `
      CREATE TABLE lead_store_secrets (
        name TEXT PRIMARY KEY,
        secret BLOB NOT NULL CHECK (length(secret) = 32),
        created_at TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    // A version a later one's build overtook is `superseded`, never left
    // `publishing`. SQLite cannot change a CHECK in place: the
    // table is made again, its self-reference following the rename.
    version: 14,
    name: 'superseded site content versions',
    sql: `
      CREATE TABLE site_content_versions_next (
        version INTEGER PRIMARY KEY,
        content TEXT NOT NULL CHECK (json_valid(content)),
        created_at TEXT NOT NULL,
        created_by TEXT REFERENCES owners (id),
        restored_from INTEGER REFERENCES site_content_versions_next (version),
        state TEXT NOT NULL CHECK (state IN ('publishing', 'live', 'failed', 'superseded')),
        error TEXT,
        live_at TEXT
      ) STRICT;
      INSERT INTO site_content_versions_next
        SELECT version, content, created_at, created_by, restored_from, state, error, live_at
        FROM site_content_versions ORDER BY version;
      DROP TABLE site_content_versions;
      ALTER TABLE site_content_versions_next RENAME TO site_content_versions;
      CREATE INDEX site_content_versions_live ON site_content_versions (version)
        WHERE state = 'live';
    `,
  },
  {
    // Each host's build of a version (docs/operations.md#several-hosts):
    // with several hosts on one database, one host's failed build is that
    // host's, never the version's on the others. Versions built before
    // this have no rows; their state stays as it was.
    version: 15,
    name: 'site builds per host',
    sql: `
      CREATE TABLE site_builds (
        version INTEGER NOT NULL REFERENCES site_content_versions (version),
        host TEXT NOT NULL CHECK (length(host) BETWEEN 1 AND 200),
        state TEXT NOT NULL CHECK (state IN ('live', 'failed', 'superseded')),
        error TEXT,
        at TEXT NOT NULL,
        PRIMARY KEY (version, host)
      ) STRICT;
      CREATE INDEX site_builds_live ON site_builds (host, version) WHERE state = 'live';
    `,
  },
  {
    // "New since you last looked" is per lead, not per owner
    // (docs/operations.md#owners-pages): when an owner first saw it. A lead
    // up to the latest "Mark all as seen" of any owner was seen then; the
    // owners' own marks go.
    version: 16,
    name: 'leads seen by an owner',
    sql: `
      ALTER TABLE leads ADD COLUMN seen_at TEXT;
      UPDATE leads SET seen_at = (SELECT max(inbox_seen_at) FROM owners)
        WHERE created_at <= (SELECT max(inbox_seen_at) FROM owners);
      CREATE INDEX leads_unseen ON leads (created_at) WHERE seen_at IS NULL;
      ALTER TABLE owners DROP COLUMN inbox_seen_at;
    `,
  },
  {
    // The owners' devices that get a push for each enquiry, and the site's
    // VAPID key pair that signs those pushes, made once by whichever
    // process asks first (docs/operations.md#push-notifications). One row
    // per endpoint: a browser subscribing again replaces its row.
    version: 17,
    name: 'push subscriptions',
    sql: `
      CREATE TABLE push_subscriptions (
        id TEXT PRIMARY KEY,
        owner_id TEXT NOT NULL REFERENCES owners (id) ON DELETE CASCADE,
        endpoint TEXT NOT NULL UNIQUE CHECK (length(endpoint) BETWEEN 1 AND 2000),
        p256dh TEXT NOT NULL CHECK (length(p256dh) BETWEEN 1 AND 200),
        auth TEXT NOT NULL CHECK (length(auth) BETWEEN 1 AND 100),
        notify TEXT NOT NULL CHECK (notify IN ('all', 'urgent')),
        device TEXT NOT NULL CHECK (length(device) <= 100),
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX push_subscriptions_owner ON push_subscriptions (owner_id, created_at);

      CREATE TABLE push_vapid_keys (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        public_key TEXT NOT NULL CHECK (length(public_key) BETWEEN 1 AND 200),
        private_key TEXT NOT NULL CHECK (length(private_key) BETWEEN 1 AND 200),
        created_at TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    // Spam (docs/operations.md#spam): which rule caught a lead, since when it
    // is spam (deleted 30 days on), and the digest the repeated-message rule
    // compares. A spam lead's stage is `spam` too: the honeypot's leads kept
    // earlier were caught by the trap; a lead an owner had put at the stage
    // `spam` becomes spam, its pending deliveries cancelled.
    version: 18,
    name: 'spam reasons',
    sql: `
      ALTER TABLE leads ADD COLUMN spam_reason TEXT
        CHECK (spam_reason IN ('trap', 'proof', 'link', 'words', 'repeated', 'owner'));
      ALTER TABLE leads ADD COLUMN spam_at TEXT;
      ALTER TABLE leads ADD COLUMN message_key TEXT;
      UPDATE leads SET stage = 'spam', spam_reason = 'trap', spam_at = created_at
        WHERE status = 'spam';
      UPDATE leads SET status = 'spam', spam_reason = 'owner',
          spam_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
        WHERE stage = 'spam' AND status <> 'spam';
      UPDATE lead_deliveries SET state = 'cancelled', next_attempt_at = NULL,
          lease_owner = NULL, lease_expires_at = NULL
        WHERE state = 'pending' AND lead_id IN (SELECT id FROM leads WHERE status = 'spam');
      CREATE INDEX leads_message_key ON leads (message_key, created_at)
        WHERE message_key IS NOT NULL;
      CREATE INDEX leads_spam_at ON leads (spam_at) WHERE spam_at IS NOT NULL;
    `,
  },
  {
    // "I'm on it" and escalation (docs/operations.md): who first said they
    // were on a lead and when; when an urgent lead nobody took was pushed
    // and e-mailed again, and the claim of the process doing it. Urgent
    // leads stored before this were never going to be escalated: they count
    // as settled, so the upgrade sends nothing about them. A delivery keeps
    // when its first attempt failed (the ones failing now: their lead's
    // time), and lead_alerts one mark per outage of a target, so each is
    // pushed once whatever the number of processes.
    version: 19,
    name: 'lead acknowledgement and escalation',
    sql: `
      ALTER TABLE leads ADD COLUMN acknowledged_at TEXT;
      ALTER TABLE leads ADD COLUMN acknowledged_by TEXT CHECK (length(acknowledged_by) <= 320);
      ALTER TABLE leads ADD COLUMN escalated_at TEXT;
      ALTER TABLE leads ADD COLUMN escalation_claimed_until TEXT;
      UPDATE leads SET escalated_at = created_at WHERE urgent = 1;
      CREATE INDEX leads_to_escalate ON leads (created_at)
        WHERE urgent = 1 AND escalated_at IS NULL AND acknowledged_at IS NULL;
      ALTER TABLE lead_deliveries ADD COLUMN first_failed_at TEXT;
      UPDATE lead_deliveries SET first_failed_at = (SELECT created_at FROM leads WHERE id = lead_id)
        WHERE state IN ('pending', 'failed') AND attempts > 0;
      CREATE INDEX lead_deliveries_failing ON lead_deliveries (target, first_failed_at)
        WHERE state IN ('pending', 'failed') AND first_failed_at IS NOT NULL;
      CREATE TABLE lead_alerts (
        name TEXT PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 100),
        at TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    // The proofs of work already spent (docs/forms.md#proof-of-work): a
    // solved challenge is accepted once; kept until it expires, so the
    // same solution sent again is known as a replay by every process.
    version: 20,
    name: 'spent proofs of work',
    sql: `
      CREATE TABLE lead_spent_proofs (
        key TEXT PRIMARY KEY CHECK (length(key) BETWEEN 1 AND 200),
        expires_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX lead_spent_proofs_expiry ON lead_spent_proofs (expires_at);
    `,
  },
  {
    // Reviews from won customers (docs/operations.md, "Reviews"): each
    // request the owner sent, with the hash of its link's token (never the
    // token), and the one review sent with it, which waits for the owner's
    // decision. Personal data of the lead's: deleted with it.
    version: 21,
    name: 'review requests',
    sql: `
      CREATE TABLE review_requests (
        id TEXT PRIMARY KEY,
        lead_id TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
        email TEXT NOT NULL CHECK (length(email) BETWEEN 3 AND 320),
        token_hash TEXT NOT NULL UNIQUE CHECK (length(token_hash) = 64),
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        sent_by TEXT NOT NULL CHECK (length(sent_by) BETWEEN 1 AND 320),
        used_at TEXT,
        rating INTEGER CHECK (rating BETWEEN 1 AND 5),
        review_text TEXT CHECK (length(review_text) BETWEEN 1 AND 2000),
        display_name TEXT CHECK (length(display_name) BETWEEN 1 AND 200),
        suburb TEXT CHECK (length(suburb) <= 200),
        consent_at TEXT,
        decision TEXT CHECK (decision IN ('waiting', 'published', 'declined')),
        decided_at TEXT,
        decided_by TEXT CHECK (length(decided_by) <= 320),
        decline_reason TEXT CHECK (decline_reason IN
          ('offensive', 'personal_details', 'not_about_our_work', 'not_a_customer')),
        testimonial_id INTEGER,
        CHECK ((used_at IS NULL) = (decision IS NULL)),
        CHECK (used_at IS NULL OR (rating IS NOT NULL AND review_text IS NOT NULL
          AND display_name IS NOT NULL AND suburb IS NOT NULL AND consent_at IS NOT NULL))
      ) STRICT;
      CREATE INDEX review_requests_email ON review_requests (email, created_at);
      CREATE INDEX review_requests_lead ON review_requests (lead_id, created_at);
      CREATE INDEX review_requests_waiting ON review_requests (used_at)
        WHERE decision = 'waiting';
      `,
  },
  {
    // The value of a won job the owner typed (docs/operations.md#reports),
    // in whole cents of NZ dollars; kept only while the lead is won.
    version: 22,
    name: 'job value of a won lead',
    sql: `
      ALTER TABLE leads ADD COLUMN job_value_cents INTEGER
        CHECK (job_value_cents BETWEEN 0 AND 1000000000);
    `,
  },
  {
    // When each lead's stage last changed (docs/operations.md#follow-ups): a
    // quote to chase is one at the stage quoted for some days, and a won
    // job's time is when it was marked won. Leads stored before this: when
    // the owners' activity list shows the save that put the lead at its
    // stage (the first of its last run of saves at that stage, after any
    // other), that save's time; a spam lead, the time it became spam;
    // otherwise the time the lead came in.
    version: 23,
    name: 'lead stage changed at',
    sql: `
      ALTER TABLE leads ADD COLUMN stage_changed_at TEXT;
      UPDATE leads SET stage_changed_at =
        CASE WHEN stage = 'spam' THEN coalesce(spam_at, created_at) ELSE created_at END;
      UPDATE leads SET stage_changed_at = latest.at FROM (
        SELECT lead_id, stage, at FROM (
          SELECT lead_id, stage, at,
            row_number() OVER (PARTITION BY lead_id ORDER BY at DESC, id DESC) AS n
          FROM (
            SELECT id, lead_id, stage, at,
              coalesce(lag(stage) OVER (PARTITION BY lead_id ORDER BY at, id), first_prior)
                AS prior
            FROM (
              SELECT id, at, substr(detail, 6, 36) AS lead_id,
                CASE action WHEN 'lead.saved' THEN substr(detail, 49)
                  WHEN 'lead.spam' THEN 'spam' ELSE 'new' END AS stage,
                CASE action WHEN 'lead.not-spam' THEN 'spam' ELSE 'new' END AS first_prior
              FROM owner_activity
              WHERE action IN ('lead.saved', 'lead.spam', 'lead.not-spam')
                AND detail LIKE 'lead=%'
            ) AS events
          ) AS ordered
          WHERE stage <> prior
        ) AS changes
        WHERE n = 1
      ) AS latest
      WHERE latest.lead_id = leads.id AND latest.stage = leads.stage
        AND leads.stage <> 'spam';
      CREATE INDEX leads_stage_changed ON leads (stage, stage_changed_at);
    `,
  },
  {
    // The owners' morning e-mail (docs/operations.md#follow-ups): one row
    // per owner and New Zealand day, claimed by the process sending it
    // (claimed_until) and marked done once sent or found empty, so several
    // processes on one database send it once. Kept 31 days.
    version: 24,
    name: 'owner morning e-mails',
    sql: `
      CREATE TABLE owner_morning_emails (
        owner_id TEXT NOT NULL REFERENCES owners (id) ON DELETE CASCADE,
        day TEXT NOT NULL CHECK (length(day) = 10),
        claimed_until TEXT NOT NULL,
        done_at TEXT,
        leads INTEGER CHECK (leads >= 0),
        PRIMARY KEY (owner_id, day)
      ) STRICT;
    `,
  },
  {
    // Where an enquiry came from (docs/operations.md#where-enquiries-come-from):
    // the first page of the visit, the site that sent the visitor, the
    // campaign tags and the Google click id, as one JSON object written with
    // the lead and read whole. Null when nothing is known, as for every lead
    // stored before this.
    version: 25,
    name: 'lead attribution',
    sql: `
      ALTER TABLE leads ADD COLUMN attribution TEXT CHECK (json_valid(attribution));
    `,
  },
];
