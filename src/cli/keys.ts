import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { openDatabase } from '../platform/db.js';
import { KeyRegistry, type KeyService } from '../platform/keys.js';

const USAGE = `usage:
  npm run keys -- create --owner <owner> --service classics|atlas|atlas-admin [--scopes a,b]
  npm run keys -- list
  npm run keys -- revoke <id>
Keys are stored in DATA_DIR/service.db as SHA-256 hashes; a new key is printed once.`;

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

const [command, ...rest] = process.argv.slice(2);
const config = loadConfig();
const db = openDatabase(config.dataDir);
const registry = new KeyRegistry(db);

try {
  if (command === 'create') {
    const { values } = parseArgs({ args: rest, options: { owner: { type: 'string' }, service: { type: 'string' }, scopes: { type: 'string' } } });
    if (!values.owner) fail('create needs --owner');
    const service = values.service as KeyService | undefined;
    if (!service || !['classics', 'atlas', 'atlas-admin'].includes(service)) fail('create needs --service classics|atlas|atlas-admin');
    const scopes = (values.scopes ?? 'read').split(',').map((s) => s.trim()).filter(Boolean);
    const { key, record } = registry.create(values.owner, service, scopes);
    process.stdout.write(`created key ${record.id} for ${record.owner} (${record.service}; scopes ${record.scopes.join(',')})\n${key}\nStore it now: only its hash is kept.\n`);
  } else if (command === 'list') {
    const rows = registry.list();
    if (!rows.length) process.stdout.write('no per-user keys\n');
    for (const r of rows) {
      process.stdout.write(`${r.id}\t${r.owner}\t${r.service}\t${r.scopes.join(',')}\tcreated ${r.createdAt}\t${r.revokedAt ? `revoked ${r.revokedAt}` : 'active'}\n`);
    }
  } else if (command === 'revoke') {
    const id = rest[0];
    if (!id) fail('revoke needs a key id');
    if (!registry.revoke(id)) fail(`no active key with id ${id}`);
    process.stdout.write(`revoked ${id}\n`);
  } else {
    fail(command ? `unknown command ${command}` : 'missing command');
  }
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
} finally {
  db.close();
}
