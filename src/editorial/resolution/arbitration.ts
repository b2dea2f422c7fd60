/**
 * Who decides the outcome, from venue facts only: venue_a is a CFTC-designated contract market whose
 * staff settle; venue_b settles through the UMA optimistic oracle, whose proposer set depends on the
 * adapter contract named in `resolvedBy` (MOOV2 = managed whitelist; earlier adapters = anyone with a bond).
 */
import type { ArbitrationModel, Evidence, Market, Proposer, RegulatoryClass, VenueFacts } from '../../domain/index.ts';
import { adapterProposer } from './registry.ts';
import { fieldEvidence } from './text.ts';

export interface Arbitration {
  arbitration_model: ArbitrationModel;
  resolution_proposer: Proposer;
  regulatory_class: RegulatoryClass;
  rule: string;
  note: string;
  evidence: Evidence[];
}

/** Arbitration model, proposer and regulatory class of a market (METHODOLOGY.md § Arbitration). */
export function arbitrationOf(market: Market, facts: VenueFacts): Arbitration {
  if (market.platform === 'venue_a') {
    return {
      arbitration_model: 'venue_a_staff',
      resolution_proposer: 'platform_staff',
      regulatory_class: 'DCM',
      rule: 'arbitration.venue_a_dcm_staff',
      note: 'venue_a is a CFTC-designated contract market; its staff determine the outcome under the contract terms.',
      evidence: [fieldEvidence('platform', market.platform)],
    };
  }
  const proposer = adapterProposer(facts.resolved_by);
  // `automaticallyResolved` records how a past resolution was carried out (e.g. a neg-risk sibling settled
  // when another outcome won); it says nothing about who arbitrates an open market, so it is not read here.
  const evidence: Evidence[] = [fieldEvidence('resolved_by', facts.resolved_by)];
  if (proposer === 'managed_whitelist') {
    return {
      arbitration_model: 'optimistic_oracle',
      resolution_proposer: 'managed_whitelist',
      regulatory_class: 'DeFi',
      rule: 'arbitration.venue_b_managed_adapter',
      note: 'resolvedBy is a managed optimistic-oracle (MOOV2) adapter: only whitelisted proposers may propose.',
      evidence,
    };
  }
  return {
    arbitration_model: 'optimistic_oracle',
    resolution_proposer: 'permissionless',
    regulatory_class: 'DeFi',
    rule:
      proposer === 'permissionless'
        ? 'arbitration.venue_b_permissionless_adapter'
        : 'arbitration.venue_b_unknown_adapter',
    note:
      proposer === 'permissionless'
        ? 'resolvedBy is a UMA adapter that accepts a proposal from anyone who posts the bond.'
        : 'resolvedBy is empty or not a known adapter; the optimistic oracle is taken as permissionless (its default).',
    evidence,
  };
}
