/**
 * Type-level contract checks: the generated types must reject the mistakes the issue names.
 * Type-checked only (`npm run typecheck:contract`), never run. Each `@ts-expect-error` fails
 * the check when the line below it compiles, so these hold only while the OpenAPI document
 * types the closed sets as enums (`ManeuverRequest.kind`, `CoverResult.degree`); with plain
 * `string` in the document, tsc reports the directives as unused (TS2578).
 */
import type { CoverResponse, ManeuverRequest } from "../src/index.js";

/** The document's ManeuverRequest example (PF1 bull rush), spelled right: it compiles. */
export const bullRush: ManeuverRequest = {
  encounter: {
    ruleset: "pf1e",
    grid: { width: 8, height: 3 },
    creatures: [
      { id: "fighter", side: "party", at: { x: 1, y: 1 }, stats: { cmb: 8 } },
      { id: "orc", side: "monsters", at: { x: 2, y: 1 }, stats: { cmd: 14 } },
    ],
  },
  kind: "bull_rush",
  attacker: "fighter",
  target: "orc",
  dice: { mode: "given", rolls: { check: [11] } },
};

/**
 * The same request with the kind misspelt must not compile. One line, so the directive covers
 * the error wherever tsc reports it (on `kind`, or on the declaration for a union type).
 */
// @ts-expect-error "bul_rush" is not a maneuver kind (bull_rush)
export const misspelt: ManeuverRequest = { ...bullRush, kind: "bul_rush" };

/** A degree compared with a value it can never take must not compile (TS2367). */
export function isThreeQuarters(answer: CoverResponse): boolean {
  // @ts-expect-error "three-quarters" is not a degree of cover (three_quarters)
  return answer.result.degree === "three-quarters";
}

/** The right spelling compiles. */
export function isThreeQuartersSpeltRight(answer: CoverResponse): boolean {
  return answer.result.degree === "three_quarters";
}
