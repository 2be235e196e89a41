/**
 * `npm run atlas:compile -- --pack <id> [--packs-dir packs]` or `-- --dir <pack folder>`
 *
 * Validates an atlas pack in full and writes its compiled folder (see src/atlas/compiled.ts), so
 * that the service opens the pack instead of checking and indexing it at every start and reload.
 * Run it as the last step of releasing a large pack, after its files are final: any later change
 * to a file makes the service ignore the compile (and load the pack the full way) until it is run
 * again. Exit code 1 and the problems on stderr when the pack is invalid.
 */
import { basename, join, resolve } from 'node:path';
import { compilePack } from '../src/atlas/compiled.js';

async function main(argv: string[]) {
  const arg = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i === -1 ? undefined : argv[i + 1];
  };
  const packId = arg('pack');
  const dir = arg('dir') ?? (packId ? join(arg('packs-dir') ?? process.env.PACKS_DIR ?? 'packs', 'atlas', packId) : undefined);
  if (!dir) {
    process.stderr.write('usage: npm run atlas:compile -- --pack <id> [--packs-dir packs] | --dir <pack folder>\n');
    process.exit(2);
  }
  const started = performance.now();
  const result = await compilePack(resolve(dir), packId ?? basename(resolve(dir)));
  if (!result.ok) {
    process.stderr.write(`${dir}: not compiled, the pack is invalid:\n${result.errors.map((e) => `  ${e}`).join('\n')}\n`);
    process.exit(1);
  }
  process.stdout.write(`compiled ${dir} (${result.stamp.packId} ${result.stamp.version}) in ${Math.round(performance.now() - started)} ms\n`);
}

await main(process.argv.slice(2));
