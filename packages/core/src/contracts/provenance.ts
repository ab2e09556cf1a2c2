/** Where the final value came from: the model, the fallback function, or the canned value. */
export type Provenance = 'model' | 'fallback' | 'canned';
