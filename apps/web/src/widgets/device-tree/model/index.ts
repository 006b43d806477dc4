/**
 * The device tree's model, kept apart from React so it can be tested and measured: the fetched tree is
 * flattened once into an index (treeIndex), every search or filter walks that index (filter), the
 * virtualized tree draws rows of the filtered nodes (rows), by the pages' rules (rules).
 */
export * from './filter';
export * from './labels';
export * from './links';
export * from './moveTargets';
export * from './rows';
export * from './rules';
export * from './selection';
export * from './treeIndex';
