import type { ConfigPlan, ConfigPlanAction, ConfigPropertyChange } from '@pagewatch/contract';

const label = {
  channels: 'channel',
  monitors: 'monitor',
  statusPages: 'status page',
  maintenance: 'maintenance window',
  slos: 'SLO',
} as const;

const sign: Record<ConfigPlanAction, string> = {
  create: '+',
  update: '~',
  unchanged: '=',
  skip: '·',
  detach: '-',
  delete: '-',
};

/** ANSI colours, or plain text when the output is not a terminal. */
export function painter(enabled: boolean) {
  const wrap = (code: number) => (text: string) =>
    enabled ? `\u001b[${code}m${text}\u001b[0m` : text;
  return { green: wrap(32), yellow: wrap(33), red: wrap(31), dim: wrap(2), bold: wrap(1) };
}
type Paint = ReturnType<typeof painter>;

const show = (value: unknown): string => (value === undefined ? '(none)' : JSON.stringify(value));

function property(c: ConfigPropertyChange, paint: Paint): string {
  if (c.secret) return `      ${c.path}: (secret ${c.secret})`;
  return `      ${c.path}: ${paint.red(show(c.before))} → ${paint.green(show(c.after))}`;
}

const tone = (action: ConfigPlanAction, paint: Paint) =>
  action === 'create'
    ? paint.green
    : action === 'update'
      ? paint.yellow
      : action === 'delete' || action === 'detach'
        ? paint.red
        : paint.dim;

/** The plan as a terminal reads it: changes first, unchanged ones counted, drift, summary, token. */
export function describePlan(plan: ConfigPlan, paint: Paint): string {
  const lines: string[] = [];
  for (const e of plan.entries) {
    if (e.action === 'unchanged') continue;
    const verb = e.action === 'detach' ? 'detach (kept, back under the UI)' : e.action;
    lines.push(tone(e.action, paint)(`  ${sign[e.action]} ${label[e.kind]} ${e.key}: ${verb}`));
    for (const c of e.changes) lines.push(property(c, paint));
  }
  if (lines.length === 0) lines.push('  No changes: the server matches the files.');
  if (plan.drift.length > 0) {
    lines.push(
      '',
      paint.bold('Drift: changed in the UI since the last apply (last applied → live):'),
    );
    for (const d of plan.drift) {
      lines.push(paint.yellow(`  ! ${label[d.kind]} ${d.key}`));
      for (const c of d.changes) lines.push(property(c, paint));
    }
  }
  const s = plan.summary;
  const prune = plan.prune ? '' : ' (removed resources are detached; --prune deletes them)';
  lines.push(
    '',
    paint.bold(
      `Plan: ${s.create} to create, ${s.update} to update, ${s.unchanged} unchanged, ` +
        `${s.detach} to detach, ${s.delete} to delete, ${s.skip} skipped; ${s.drift} drifted.`,
    ) + prune,
    `Plan token: ${plan.token}`,
  );
  return `${lines.join('\n')}\n`;
}
