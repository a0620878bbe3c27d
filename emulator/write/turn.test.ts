import { describe, expect, it } from 'vitest';
import { budgetedTurns } from './turn';

describe('budgetedTurns (a write gives the request thread away on a budget)', () => {
  function harness(budgetMs = 4) {
    const state = { now: 0, searching: false, gaveWay: 0 };
    const turn = budgetedTurns({
      budgetMs,
      now: () => state.now,
      searchesActive: () => state.searching,
      giveWay: async () => {
        state.gaveWay++;
      },
    });
    return { state, turn };
  }

  it('gives way on the first turn, then once per budget of work', async () => {
    const { state, turn } = harness(4);
    await turn();
    expect(state.gaveWay).toBe(1);
    // Steps of 1 ms: the 4th step after a yield reaches the budget.
    const at: number[] = [];
    for (let step = 1; step <= 12; step++) {
      state.now = step;
      const before = state.gaveWay;
      await turn();
      if (state.gaveWay > before) at.push(step);
    }
    expect(at).toEqual([4, 8, 12]);
  });

  it('gives way at once while a search is in flight, whatever is left of the budget', async () => {
    const { state, turn } = harness(4);
    await turn();
    state.now = 1;
    await turn();
    expect(state.gaveWay).toBe(1);
    state.searching = true;
    state.now = 1.5;
    await turn();
    await turn();
    expect(state.gaveWay).toBe(3);
    state.searching = false;
    state.now = 2;
    await turn();
    expect(state.gaveWay).toBe(3);
  });

  it('counts the budget from the end of the last give-way, not its start', async () => {
    const state = { now: 0, gaveWay: 0 };
    const turn = budgetedTurns({
      budgetMs: 4,
      now: () => state.now,
      searchesActive: () => false,
      giveWay: async () => {
        state.gaveWay++;
        state.now += 10; // others ran for 10 ms meanwhile
      },
    });
    await turn(); // yields; others run until t = 10
    state.now = 13;
    await turn();
    expect(state.gaveWay).toBe(1);
    state.now = 14;
    await turn();
    expect(state.gaveWay).toBe(2);
  });
});
