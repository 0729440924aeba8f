// The surface fold finds a replace's endpoints through order keys instead of scanning the surface.
// Property: over any run of appends and replaces (valid or not, with clones taken along the way), every
// plan — its endpoints' places, its shadowed nodes, or its refusal — and the surface after it are those
// of a fold that looks every endpoint up by scanning the nodes in order.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { SurfaceFold, type SurfacePlan } from '../../src/core/surface/surface';
import type { SessionEvent } from '../../src/core';

/** The fold's plan of a replace as a scan of the surface gives it (sourceEventSeqs cite the shadowed nodes). */
function scannedPlan(nodes: readonly number[], start: number, end: number): { startIdx: number; endIdx: number } | 'refused' {
  const startIdx = nodes.indexOf(start);
  const endIdx = nodes.indexOf(end);
  return startIdx === -1 || endIdx === -1 || startIdx > endIdx ? 'refused' : { startIdx, endIdx };
}

function event(seq: number, op: 'append' | { start: number; end: number }, sources?: number[]): SessionEvent {
  return {
    type: 'user/message',
    seq,
    time: seq,
    data: { role: 'user', content: 'x' },
    surfaceOp: op === 'append' ? op : { op: 'replace', ...op },
    ...(sources ? { sourceEventSeqs: sources } : {}),
  } as unknown as SessionEvent;
}

describe('surface fold: endpoints found by order keys', () => {
  it('plans every replace as a scan of the surface would, and keeps the same surface (clones too)', () => {
    const step = fc.oneof(
      fc.constant<{ kind: 'append' }>({ kind: 'append' }),
      fc.record({ kind: fc.constant<'replace'>('replace'), a: fc.nat(), b: fc.nat(), clone: fc.boolean() }),
    );
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 120 }), (steps) => {
        let fold = new SurfaceFold();
        const lookup = (): SessionEvent | undefined => undefined;
        const reference: number[] = [];
        let seq = 0;
        for (const s of steps) {
          if (s.kind === 'append') {
            fold.apply(fold.plan(event(seq, 'append'), seq, lookup));
            reference.push(seq);
          } else {
            // Endpoints among every seq so far (on the surface or shadowed already) and one never written.
            const start = s.a % (seq + 1);
            const end = s.b % (seq + 1);
            const expected = scannedPlan(reference, start, end);
            const sources = expected === 'refused' ? [start] : reference.slice(expected.startIdx, expected.endIdx + 1);
            let plan: SurfacePlan | undefined;
            try {
              plan = fold.plan(
                event(
                  seq,
                  { start, end },
                  [...sources].sort((x, y) => x - y),
                ),
                seq,
                lookup,
              );
            } catch {
              plan = undefined;
            }
            if (expected === 'refused') {
              assert.equal(plan, undefined, `replace ${start}..${end} of [${reference}] is refused`);
              continue;
            }
            assert.ok(plan?.kind === 'replace', `replace ${start}..${end} of [${reference}] is planned`);
            assert.deepEqual([plan.startIdx, plan.endIdx, plan.shadowedSeqs], [expected.startIdx, expected.endIdx, sources]);
            if (s.clone) fold = fold.clone();
            fold.apply(plan);
            reference.splice(expected.startIdx, expected.endIdx - expected.startIdx + 1, seq);
          }
          assert.deepEqual(fold.nodes, reference);
          seq++;
        }
        return true;
      }),
      { numRuns: 400 },
    );
  });
});
