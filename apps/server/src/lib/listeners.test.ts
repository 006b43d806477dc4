import { describe, expect, it } from 'vitest';
import { Listeners } from './listeners.js';

const quietLog = () => {
  const lines: { obj: object; msg: string }[] = [];
  return { lines, log: { error: (obj: object, msg: string) => void lines.push({ obj, msg }) } };
};

describe('Listeners', () => {
  it('adds: every listener is told, in the order added, and a removed one no more', () => {
    const heard: string[] = [];
    const l = new Listeners<[number]>('a test');
    l.add((n) => heard.push(`a${n}`));
    const stopB = l.add((n) => heard.push(`b${n}`));
    l.add((n) => heard.push(`c${n}`));
    l.emit(1);
    stopB();
    stopB(); // again: nothing
    l.emit(2);
    expect(heard).toEqual(['a1', 'b1', 'c1', 'a2', 'c2']);
    expect(l.size).toBe(2);
  });

  it('counts the same function added twice as two, each removal taking out its own', () => {
    let n = 0;
    const fn = () => void n++;
    const l = new Listeners<[]>('a test');
    const first = l.add(fn);
    l.add(fn);
    l.emit();
    first();
    l.emit();
    expect(n).toBe(3);
  });

  it('emit: a listener that throws or rejects is logged, and the others are still told', async () => {
    const { lines, log } = quietLog();
    const heard: number[] = [];
    const l = new Listeners<[number]>('fixes stored', log);
    l.add(() => {
      throw new Error('sync boom');
    });
    l.add(async () => {
      throw new Error('async boom');
    });
    l.add((n) => void heard.push(n));
    l.emit(7);
    expect(heard).toEqual([7]);
    await Promise.resolve();
    await new Promise((r) => setImmediate(r));
    expect(lines.map((x) => [x.msg, ((x.obj as { err: Error }).err).message])).toEqual([
      ['a listener of fixes stored failed', 'sync boom'],
      ['a listener of fixes stored failed', 'async boom'],
    ]);
  });

  it('emit: a listener added or removed while told changes the next emit, not this one', () => {
    const heard: string[] = [];
    const l = new Listeners<[]>('a test');
    let stopC = () => {};
    l.add(() => {
      heard.push('a');
      stopC();
      l.add(() => void heard.push('d'));
    });
    stopC = l.add(() => void heard.push('c'));
    l.emit();
    expect(heard).toEqual(['a', 'c']);
  });

  it('emitInTurn: awaits each in order before the next', async () => {
    const heard: string[] = [];
    const l = new Listeners<[string]>('a test');
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    l.add(async (s) => {
      await gate;
      heard.push(`slow ${s}`);
    });
    l.add((s) => void heard.push(`next ${s}`));
    const done = l.emitInTurn('x');
    await new Promise((r) => setImmediate(r));
    expect(heard).toEqual([]);
    release();
    await done;
    expect(heard).toEqual(['slow x', 'next x']);
  });

  it('emitInTurn: tells every listener, then rethrows the one failure, or an AggregateError of several', async () => {
    const heard: number[] = [];
    const one = new Listeners<[number]>('a test');
    const boom = new Error('boom');
    one.add(async () => {
      throw boom;
    });
    one.add((n) => void heard.push(n));
    await expect(one.emitInTurn(1)).rejects.toBe(boom);
    expect(heard).toEqual([1]);

    const two = new Listeners<[number]>('members disabled');
    two.add(() => {
      throw new Error('first');
    });
    two.add((n) => void heard.push(n));
    two.add(async () => {
      throw new Error('second');
    });
    const err = await two.emitInTurn(2).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AggregateError);
    expect((err as AggregateError).errors.map((e: Error) => e.message)).toEqual(['first', 'second']);
    expect((err as AggregateError).message).toBe('2 listeners of members disabled failed');
    expect(heard).toEqual([1, 2]);
    await expect(new Listeners<[]>('none').emitInTurn()).resolves.toBeUndefined();
  });
});
