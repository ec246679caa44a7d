package bfcl

// Converters for the tests of package bfcl_test.
var (
	JavaConvert = javaConvert
	JSConvert   = jsConvert
)
