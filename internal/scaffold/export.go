package scaffold

// Quote writes s as a YAML double-quoted scalar that reads back as s,
// every character YAML does not print as it is escaped (see rule 3).
func Quote(s string) string { return quote(s) }

// Value writes a JSON value in YAML flow syntax that reads back as the
// same value: strings quoted, numbers with their digits, keys that start
// with $ written $$ (see rule 3).
func Value(v any) string { return value(v) }
