package msglog

// AskedFacts are the facts a Head reads alone, for the tests.
var AskedFacts = askedFacts

// FactsRead reports whether h has read all of its facts.
func FactsRead(h *Head) bool { return h.facts != nil }
