/**
 * The committed shape manifests (data/venue-shapes/*.json, written by `pmref venue-shapes` from the venues'
 * published OpenAPI documents). The venue clients check every pull against them.
 */

import venueA from '../../../data/venue-shapes/venue_a.json' with { type: 'json' };
import venueB from '../../../data/venue-shapes/venue_b.json' with { type: 'json' };
import type { Venue } from '../../domain/index.ts';
import type { VenueShapeManifest } from './shapes.ts';

export const VENUE_SHAPES: Record<Venue, VenueShapeManifest> = {
  venue_a: venueA as VenueShapeManifest,
  venue_b: venueB as VenueShapeManifest,
};
