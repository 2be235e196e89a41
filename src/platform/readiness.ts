/** One condition the service needs before it can take traffic; `reason` says what is wrong. */
export interface ReadinessCheck {
  name: string;
  check: () => { ok: boolean; reason?: string };
}

export class Readiness {
  private readonly checks = new Map<string, ReadinessCheck[]>();

  add(service: string, check: ReadinessCheck) {
    const list = this.checks.get(service) ?? [];
    list.push(check);
    this.checks.set(service, list);
  }

  evaluate(service: string): { ready: boolean; checks: Record<string, boolean>; reasons: string[] } {
    const reasons: string[] = [];
    const checks: Record<string, boolean> = {};
    for (const c of this.checks.get(service) ?? []) {
      let result: { ok: boolean; reason?: string };
      try {
        result = c.check();
      } catch {
        result = { ok: false, reason: `${c.name}: check failed` };
      }
      checks[c.name] = result.ok;
      if (!result.ok) reasons.push(result.reason ?? c.name);
    }
    return { ready: reasons.length === 0, checks, reasons };
  }
}
