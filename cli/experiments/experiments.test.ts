import { describe, expect, it } from 'vitest';
import { experimentNames, makeTargets, profileKnobs } from './experiments';

const MAKE_TARGETS = await makeTargets();

const LOOPBACK = { TURBOPUFFER_BASE_URL: 'http://127.0.0.1:8787' };

describe('make targets', () => {
  it('are every folder of lib/ with an experiment.ts, each as <name> and <name>-smoke', () => {
    expect(experimentNames()).toEqual(expect.arrayContaining(['backlog', 'filter-cost']));
    for (const name of experimentNames()) {
      expect(MAKE_TARGETS[name].script).toBe(`build/${name}.js`);
      expect(MAKE_TARGETS[`${name}-smoke`].service).toBeNull();
    }
  });
});

describe('profileKnobs', () => {
  it('passes a profile through unchanged in the default arrival mode', () => {
    const p = MAKE_TARGETS.backlog.emulator;
    expect(profileKnobs(p, undefined)).toEqual({ env: p.env, setAside: [] });
    expect(profileKnobs(p, 'arrival')).toEqual({ env: p.env, setAside: [] });
  });

  it("sets aside the profile's arrival-rate knobs when the caller picks QUERY_MODE=workers", () => {
    const backlog = profileKnobs(MAKE_TARGETS.backlog.emulator, 'workers');
    expect(backlog.setAside).toEqual(['QUERY_RATE', 'QUERY_VUS']);
    expect(backlog.env).not.toHaveProperty('QUERY_RATE');
    expect(backlog.env.SEED_ROWS).toBe(MAKE_TARGETS.backlog.emulator.env.SEED_ROWS);
    expect(profileKnobs(MAKE_TARGETS['filter-cost-smoke'].emulator, ' workers ').setAside).toEqual([
      'QUERY_RATE',
    ]);
    expect(profileKnobs(MAKE_TARGETS['filter-cost'].emulator, 'workers').setAside).toEqual([]);
  });

  it.each(Object.keys(MAKE_TARGETS))(
    'make %s takes QUERY_MODE=workers: the knob checks accept the profile with it',
    (name) => {
      const t = MAKE_TARGETS[name];
      // Without the set-aside the script refuses the profile's QUERY_RATE beside workers.
      if (profileKnobs(t.emulator, 'workers').setAside.length > 0)
        expect(() => t.checkKnobs({ ...t.emulator.env, QUERY_MODE: 'workers', ...LOOPBACK })).toThrow(
          'has no effect with QUERY_MODE=workers',
        );
      const env = { ...profileKnobs(t.emulator, 'workers').env, QUERY_MODE: 'workers', ...LOOPBACK };
      expect(() => t.checkKnobs(env)).not.toThrow();
      // The caller's own arrival knob beside workers is still refused.
      expect(() => t.checkKnobs({ ...env, QUERY_RATE: '5' })).toThrow(
        'QUERY_RATE: has no effect with QUERY_MODE=workers',
      );
    },
  );
});
