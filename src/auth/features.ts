/** The account feature that enables the call-scoring API (DESIGN section 4: without it, 403 feature_not_enabled). */
export const FEATURE_CALL_SCORING_API = 'call_scoring_api';
