/**
 * `npm run packs:check`: validates every released pack and prints what it holds. Exit 1 with the
 * list of problems when anything is wrong. `npm test` runs it first.
 */
import { checkPacks } from '../src/packs-check.js';

const report = checkPacks(process.env.PACKS_DIR ?? 'packs');
for (const line of report.summary) process.stdout.write(`${line}\n`);
if (report.errors.length) {
  process.stderr.write(`\n${report.errors.length} problem(s):\n${report.errors.map((e) => `  - ${e}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write('packs: ok\n');
