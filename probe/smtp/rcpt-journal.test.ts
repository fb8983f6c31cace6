// The RCPT budget across a restart: a node that spent its share toward an MX and is started again
// within the window must not spend it a second time. Each "process" here is a new RcptBudget on the
// same journal file, with its own monotonic clock (starting over at 0, as a new process's does) and a
// shared wall clock.
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RcptBudget } from './rcpt-budget';
import { openRcptJournal } from './rcpt-journal';

const MX = '192.0.2.25';
const OTHER_MX = '198.51.100.7';
const WINDOW = 60_000;
const SHARE = 10;
const SPAN = WINDOW + WINDOW / SHARE;

let dir: string;
let file: string;
let wall: number;
let warnings: string[];
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'rcpt-journal-'));
  file = path.join(dir, 'node.rcpt-journal');
  wall = 1_800_000_000_000;
  warnings = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A new process: its own monotonic clock from 0, the shared wall clock, the journal at `at`. */
function startProcess(at = file, compactEvery?: number): { budget: RcptBudget; advance(ms: number): void } {
  let mono = 0;
  const budget = new RcptBudget({
    rcpts: SHARE,
    windowMs: WINDOW,
    now: () => mono,
    journal: (spanMs) => openRcptJournal({ path: at, spanMs, wallNow: () => wall, monoNow: () => mono, warn: (m) => warnings.push(m), ...(compactEvery ? { compactEvery } : {}) }),
  });
  return {
    budget,
    advance(ms) {
      mono += ms;
      wall += ms;
    },
  };
}

describe('the fleet RCPT budget across a restart (its journal)', () => {
  it('a node started again within the window counts what it sent before and waits for the rest of the span', async () => {
    const first = startProcess();
    expect(await first.budget.take(MX, 6)).toBe(6);
    first.advance(1_000);
    expect(await first.budget.take(MX, 6)).toBe(4); // the share is spent
    first.advance(2_000);
    // kill -9: nothing closed, nothing flushed beyond the writes already made.

    const second = startProcess();
    expect(second.budget.room(MX)).toBe(0);
    expect(second.budget.room(OTHER_MX)).toBe(SHARE); // another MX was never spent
    // The first 6 leave the span SPAN ms after they went out (3 s before this process started).
    second.advance(SPAN - 3_000 - 1);
    expect(second.budget.room(MX)).toBe(0);
    second.advance(1);
    expect(second.budget.room(MX)).toBe(6);
    second.advance(1_000);
    expect(second.budget.room(MX)).toBe(SHARE);
    expect(warnings).toEqual([]);
  });

  it('without a journal a restarted node would spend its share again at once (what the journal prevents)', async () => {
    const first = new RcptBudget({ rcpts: SHARE, windowMs: WINDOW, now: () => 0 });
    expect(await first.take(MX, SHARE)).toBe(SHARE);
    const second = new RcptBudget({ rcpts: SHARE, windowMs: WINDOW, now: () => 0 });
    expect(second.room(MX)).toBe(SHARE);
  });

  it('keeps only the grants inside the span: older lines are dropped from the file at start', async () => {
    const first = startProcess();
    await first.budget.take(MX, 4);
    first.advance(SPAN + 1);
    await first.budget.take(OTHER_MX, 2);
    startProcess();
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toEqual([`${wall} 2 ${OTHER_MX}`]);
  });

  it('rewrites the file after enough grants, keeping what is still inside the span', async () => {
    const p = startProcess(file, 5);
    for (let i = 0; i < 4; i++) await p.budget.take(MX, 1);
    p.advance(SPAN + 1);
    for (let i = 0; i < 3; i++) await p.budget.take(OTHER_MX, 1);
    // 7 grants, compaction after the 5th: the 4 old ones are gone, the file holds the recent ones.
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.every((l) => l.endsWith(OTHER_MX))).toBe(true);
    expect(lines).toHaveLength(3);
    expect(startProcess().budget.room(OTHER_MX)).toBe(SHARE - 3);
  });

  it('skips a line cut short by the kill, lines that do not parse, and counts that are not IPs or numbers', () => {
    writeFileSync(
      file,
      [`${wall - 1000} 3 ${MX}`, `${wall - 900} x ${MX}`, `${wall - 800} 2 mx.example.com`, `${wall - 700} -1 ${MX}`, `garbage`, `${wall - 600} 2 ${MX} extra`, `${wall - 500} 1 ${MX.slice(0, 5)}`].join('\n'),
    );
    expect(startProcess().budget.room(MX)).toBe(SHARE - 3);
    expect(warnings).toEqual([]);
  });

  it('a grant dated ahead of the clock (the clock was set back) counts as now: it leaves the span last', () => {
    writeFileSync(file, `${wall + 3_600_000} 4 ${MX}\n`);
    const p = startProcess();
    expect(p.budget.room(MX)).toBe(SHARE - 4);
    p.advance(SPAN - 1);
    expect(p.budget.room(MX)).toBe(SHARE - 4);
    p.advance(1);
    expect(p.budget.room(MX)).toBe(SHARE);
  });

  it('does not follow a symbolic link planted at the journal path: it is not read, and replaced by a file of its own', async () => {
    const target = path.join(dir, 'victim');
    writeFileSync(target, `${wall} 9 ${MX}\n`);
    symlinkSync(target, file);
    const p = startProcess();
    expect(p.budget.room(MX)).toBe(SHARE);
    expect(warnings.join('\n')).toContain('is not a file of this user');
    await p.budget.take(MX, 2);
    expect(readFileSync(target, 'utf8')).toBe(`${wall} 9 ${MX}\n`); // untouched
    expect(readFileSync(file, 'utf8')).toBe(`${wall} 2 ${MX}\n`);
  });

  it('a journal that cannot be written is reported once and the budget still holds within the process', async () => {
    const p = startProcess(path.join(dir, 'missing-dir', 'node.rcpt-journal'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/could not be rewritten .*holds within this process only/);
    expect(await p.budget.take(MX, SHARE + 5)).toBe(SHARE);
    expect(p.budget.room(MX)).toBe(0);
    expect(warnings).toHaveLength(1);
  });
});
