package trajeval

// Canonical is canonical: whether AppendJSON copies kept text as it stands.
var Canonical = canonical
