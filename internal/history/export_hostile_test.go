package history

// Squeeze is squeeze, for the tests of unsqueeze's check of S2 blocks.
var Squeeze = squeeze
