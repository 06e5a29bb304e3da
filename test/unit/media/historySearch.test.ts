import { describe, expect, it } from 'vitest';
import { filterSessions, historyWhen } from '../../../media/src/historySearch';

const at = (y: number, m: number, d: number, h = 0, min = 0): number => new Date(y, m - 1, d, h, min).getTime();

describe('History: dates and search', () => {
  const now = at(2026, 3, 10, 18, 0);

  it('says Today and Yesterday with the time, else the date with the time', () => {
    expect(historyWhen(at(2026, 3, 10, 9, 5), now, 'en-GB')).toBe('Today 09:05');
    expect(historyWhen(at(2026, 3, 9, 23, 59), now, 'en-GB')).toBe('Yesterday 23:59');
    expect(historyWhen(at(2026, 3, 3, 17, 40), now, 'en-GB')).toBe('3 Mar 2026 17:40');
  });

  const sessions = [
    { id: '1', title: 'Fix the rm -rf guard', updatedAt: at(2026, 3, 10, 9, 0), detail: '4 prompts' },
    { id: '2', title: 'Add tests for greet', updatedAt: at(2026, 3, 9, 8, 0) },
    { id: '3', title: 'Refactor the CLI', updatedAt: at(2026, 2, 1, 8, 0) },
  ];
  const when = (s: (typeof sessions)[number]): string => historyWhen(s.updatedAt, now, 'en-GB');

  it('an empty search lists every session, in order', () => {
    expect(filterSessions(sessions, '  ', when).map((s) => s.id)).toEqual(['1', '2', '3']);
  });

  it('matches every word, case-insensitive, in the title, the detail or the date', () => {
    expect(filterSessions(sessions, 'GUARD rm', when).map((s) => s.id)).toEqual(['1']);
    expect(filterSessions(sessions, 'prompts', when).map((s) => s.id)).toEqual(['1']);
    expect(filterSessions(sessions, 'yesterday', when).map((s) => s.id)).toEqual(['2']);
    expect(filterSessions(sessions, 'feb', when).map((s) => s.id)).toEqual(['3']);
    expect(filterSessions(sessions, 'greet cli', when)).toEqual([]);
  });
});
