/**
 * How many calendar days after `from` an availability search may end (the contract's month view).
 * Its own module because the error catalog's message quotes it, and the catalog must not import
 * the search that throws its errors.
 */
export const MAX_RANGE_DAYS = 31;
