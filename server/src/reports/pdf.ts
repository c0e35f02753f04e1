import type { Report } from '@pagewatch/contract';
import PDFDocument from 'pdfkit';
import { duration, millis, percent, when } from './format.js';

const INK = '#1f2933';
const MUTED = '#616e7c';
const LINE = '#d9e2ec';
const GOOD = '#2f9e44';
const BAD = '#e03131';
const MARGIN = 50;

type Doc = PDFKit.PDFDocument;

/** Starts a new page when fewer than `h` points are left. */
function room(doc: Doc, h: number): void {
  if (doc.y + h > doc.page.height - MARGIN - 20) doc.addPage();
}

function heading(doc: Doc, text: string): void {
  room(doc, 60);
  doc.moveDown(0.8).font('Helvetica-Bold').fontSize(13).fillColor(INK).text(text, MARGIN);
  doc.moveDown(0.3);
}

/** A table with fixed column widths; the first (and `textAt`) columns left-aligned, figures right. */
function table(
  doc: Doc,
  head: string[],
  rows: string[][],
  widths: number[],
  textAt: number[] = [],
): void {
  const rowH = 16;
  const line = (cells: string[], bold: boolean) => {
    room(doc, rowH + 4);
    const y = doc.y;
    let x = MARGIN;
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(9)
      .fillColor(bold ? MUTED : INK);
    cells.forEach((c, i) => {
      const w = widths[i] ?? 60;
      doc.text(c, x + 2, y + 4, {
        width: w - 4,
        align: i === 0 || textAt.includes(i) ? 'left' : 'right',
        lineBreak: false,
        ellipsis: true,
      });
      x += w;
    });
    doc
      .moveTo(MARGIN, y + rowH)
      .lineTo(MARGIN + widths.reduce((a, b) => a + b, 0), y + rowH)
      .lineWidth(0.5)
      .strokeColor(LINE)
      .stroke();
    doc.x = MARGIN;
    doc.y = y + rowH;
  };
  line(head, true);
  for (const r of rows) line(r, false);
}

function summary(doc: Doc, r: Report): void {
  const boxes: [string, string][] = [
    ['Uptime', percent(r.uptime)],
    [r.monitors.length > 1 ? 'Downtime (mean)' : 'Downtime', duration(r.downtimeMs)],
    ['Incidents', String(r.incidents)],
    ['MTTR', duration(r.mttrMs)],
    ['MTBF', duration(r.mtbfMs)],
  ];
  const w = (doc.page.width - 2 * MARGIN - 4 * 8) / 5;
  const y = doc.y + 6;
  boxes.forEach(([label, value], i) => {
    const x = MARGIN + i * (w + 8);
    doc.roundedRect(x, y, w, 52, 4).lineWidth(0.8).strokeColor(LINE).stroke();
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor(MUTED)
      .text(label.toUpperCase(), x + 8, y + 9, { width: w - 16 });
    doc
      .font('Helvetica-Bold')
      .fontSize(14)
      .fillColor(INK)
      .text(value, x + 8, y + 25, { width: w - 16 });
  });
  doc.x = MARGIN;
  doc.y = y + 64;
}

/** Uptime per period as bars, scaled from the lowest figure (at most 90 %) to 100 %. */
function chart(doc: Doc, r: Report): void {
  const labels = r.monitors[0]?.periods.map((p) => p.label) ?? [];
  if (labels.length === 0) return;
  const values = labels.map((_, i) => {
    let checks = 0;
    let good = 0;
    for (const m of r.monitors) {
      const p = m.periods[i];
      if (!p || p.uptime === null) continue;
      checks += p.checks;
      good += (p.uptime / 100) * p.checks;
    }
    return checks === 0 ? null : (good / checks) * 100;
  });
  const known = values.filter((v): v is number => v !== null);
  // The axis starts a point below the worst period, so a 99.5 % month still shows a bar.
  const low = Math.max(0, Math.min(99, Math.floor(Math.min(100, ...known)) - 1));
  heading(doc, `Uptime per ${r.periodKind}`);
  room(doc, 130);
  const [x0, y0, w, h] = [MARGIN + 30, doc.y + 4, doc.page.width - 2 * MARGIN - 30, 100];
  doc.font('Helvetica').fontSize(7).fillColor(MUTED);
  doc.text('100 %', MARGIN - 4, y0 - 3, { width: 30, align: 'right' });
  doc.text(`${low} %`, MARGIN - 4, y0 + h - 4, { width: 30, align: 'right' });
  doc
    .moveTo(x0, y0 + h)
    .lineTo(x0 + w, y0 + h)
    .lineWidth(0.5)
    .strokeColor(LINE)
    .stroke();
  const slot = w / values.length;
  values.forEach((v, i) => {
    if (v === null) return;
    const bh = Math.max(1, ((v - low) / (100 - low)) * h);
    doc.rect(x0 + i * slot + slot * 0.15, y0 + h - bh, slot * 0.7, bh).fill(v >= 99.9 ? GOOD : BAD);
  });
  const every = Math.ceil(values.length / 12);
  doc.fillColor(MUTED).fontSize(6.5);
  labels.forEach((l, i) => {
    if (i % every) return;
    doc.text(r.periodKind === 'day' ? l.slice(5) : l, x0 + i * slot, y0 + h + 3, {
      width: slot * every,
      lineBreak: false,
    });
  });
  doc.x = MARGIN;
  doc.y = y0 + h + 18;
}

function periodsTable(doc: Doc, r: Report): void {
  const m = r.monitors[0];
  if (!m) return;
  heading(doc, r.periodKind === 'day' ? 'Days' : 'Months');
  table(
    doc,
    ['Period', 'Uptime', 'Downtime', 'Checks', 'p50', 'p95', 'p99'],
    m.periods.map((p) => [
      p.label,
      percent(p.uptime),
      duration(p.downtimeMs),
      String(p.checks),
      millis(p.latency.p50),
      millis(p.latency.p95),
      millis(p.latency.p99),
    ]),
    [95, 70, 80, 55, 65, 65, 65],
  );
}

function monitorsTable(doc: Doc, r: Report): void {
  heading(doc, 'Monitors');
  table(
    doc,
    ['Monitor', 'Uptime', 'Downtime', 'Incidents', 'MTTR', 'p95'],
    r.monitors.map((m) => [
      m.name,
      percent(m.uptime),
      duration(m.downtimeMs),
      String(m.incidents),
      duration(m.mttrMs),
      millis(m.latency.p95),
    ]),
    [175, 70, 75, 55, 60, 60],
  );
}

function incidents(doc: Doc, r: Report): void {
  heading(doc, 'Incidents');
  if (r.incidentList.length === 0) {
    doc.font('Helvetica').fontSize(9).fillColor(MUTED).text('No incidents in this period.', MARGIN);
    return;
  }
  const names = new Map(r.monitors.map((m) => [m.id, m.name]));
  table(
    doc,
    ['Monitor', 'Started', 'Resolved', 'Counted'],
    r.incidentList.map((i) => [
      names.get(i.monitorId) ?? '',
      when(i.startedAt, r.timeZone),
      i.resolvedAt ? when(i.resolvedAt, r.timeZone) : 'ongoing',
      duration(i.durationMs),
    ]),
    [175, 110, 110, 100],
  );
}

/** Each SLO met or missed over the range (ADR 71), one line apiece. */
function slos(doc: Doc, r: Report): void {
  if (r.slos.length === 0) return;
  heading(doc, 'Service level objectives');
  doc.font('Helvetica').fontSize(8.5).fillColor(MUTED);
  doc.text('Each objective judged over this report’s range, by its own rules.', MARGIN);
  doc.moveDown(0.3);
  table(
    doc,
    ['SLO', 'Subject', 'Target', 'Attained', 'Result'],
    r.slos.map((s) => [
      s.name,
      s.subjectLabel,
      `${s.target} %` + (s.latency ? `, ${s.latency.percent} % < ${s.latency.thresholdMs} ms` : ''),
      percent(s.attainment) +
        (s.latency?.observedMs != null ? `, p${s.latency.percent} ${s.latency.observedMs} ms` : ''),
      s.met === null ? 'No data' : s.met ? 'Met' : 'Missed',
    ]),
    [130, 120, 90, 95, 60],
    [1],
  );
}

function corrections(doc: Doc, r: Report): void {
  if (r.corrections.length === 0) return;
  heading(doc, 'Corrections');
  doc.font('Helvetica').fontSize(8.5).fillColor(MUTED);
  doc.text('These periods were left out of the figures above, for the reasons given.', MARGIN);
  doc.moveDown(0.3);
  const names = new Map(r.monitors.map((m) => [m.id, m.name]));
  table(
    doc,
    ['Monitor', 'From', 'To', 'Reason'],
    r.corrections.map((c) => [
      names.get(c.monitorId) ?? '',
      when(c.startsAt, r.timeZone),
      when(c.endsAt, r.timeZone),
      c.reason,
    ]),
    [120, 85, 85, 205],
    [3],
  );
}

/**
 * The report as a PDF a customer can be sent (ADR 55): pdfkit's built-in Helvetica, so any
 * server makes the same document without a browser or font files.
 */
export function reportPdf(r: Report): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: `Availability report: ${r.subject.name}, ${r.label}`, Creator: 'Pagewatch' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.font('Helvetica').fontSize(9).fillColor(MUTED).text('AVAILABILITY REPORT', MARGIN);
  doc.moveDown(0.2).font('Helvetica-Bold').fontSize(22).fillColor(INK).text(r.subject.name);
  doc
    .moveDown(0.2)
    .font('Helvetica')
    .fontSize(11)
    .fillColor(INK)
    .text(
      `${r.label}  ·  ${when(r.from, r.timeZone)} to ${when(r.to, r.timeZone)} (${r.timeZone})`,
    );
  summary(doc, r);
  chart(doc, r);
  if (r.monitors.length === 1) periodsTable(doc, r);
  else monitorsTable(doc, r);
  incidents(doc, r);
  slos(doc, r);
  corrections(doc, r);
  doc.moveDown(1.2);
  room(doc, 50);
  doc
    .font('Helvetica')
    .fontSize(7.5)
    .fillColor(MUTED)
    .text(
      `Uptime is the share of checks that succeeded${r.degradedIsDown ? '' : ' (degraded counts as up)'}; ` +
        'checks during maintenance windows and corrections are left out. Downtime is the failed share ' +
        `of the counted time. Generated by Pagewatch on ${when(r.generatedAt, r.timeZone)} (${r.timeZone}).`,
      MARGIN,
    );
  doc.end();
  return done;
}
