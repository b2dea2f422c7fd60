/** The spot room: a client for the simple-price API shape (live, replay and simulated sources). */
export { type PullSpotOptions, pullSpot, type SpotPull } from './client.ts';
