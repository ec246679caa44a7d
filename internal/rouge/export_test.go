package rouge

// StemMartin exposes the stemmer without NLTK's extensions (Martin Porter's
// own variant) to the black-box tests, which check it against his published
// vocabulary.
var StemMartin = stemMartin
