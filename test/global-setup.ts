import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One directory per run that holds every test's data, packs and compiled atlas; removed when the run ends. */
    tempRoot: string;
  }
}

export default function setup(project: TestProject) {
  const root = mkdtempSync(join(tmpdir(), 'svc-suite-'));
  project.provide('tempRoot', root);
  return () => rmSync(root, { recursive: true, force: true });
}
