/** The resolution judgment of one market: what `judgeResolution` returns (spec §2.2 field names plus the full rcg). */
import type {
  ArbitrationModel,
  CommitmentSubtype,
  FieldProvenance,
  Proposer,
  Rcg,
  RegulatoryClass,
  ResolutionSource,
  ResolutionTriggers,
  SourceCommitment,
  SourceMechanism,
  SourceStatus,
  SourceType,
} from '../../domain/index.ts';

export interface ResolutionJudgment {
  resolution_source_list: ResolutionSource[] | null;
  source_commitment: SourceCommitment;
  source_commitment_subtype: CommitmentSubtype;
  source_mechanism: SourceMechanism | null;
  source_of_record: string | null;
  source_type: SourceType | null;
  source_status: SourceStatus;
  resolution_source: string | null;
  source_citation: string | null;
  source_hedge_text: string | null;
  arbitration_model: ArbitrationModel;
  resolution_proposer: Proposer;
  regulatory_class: RegulatoryClass;
  resolution_triggers: ResolutionTriggers | null;
  rcg: Rcg;
  field_provenance: FieldProvenance;
}
