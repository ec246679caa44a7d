// Package bfcl is the Berkeley Function Calling Leaderboard's AST checker
// (its ast_checker.py) for Python, Java and JavaScript, as an evaluator:
// a model's decoded
// calls, read as the steps of a trajectory, checked against the
// question's function documents and the possible answers.
//
// A possible answer (the ground truth) is a list of expected calls; each
// names a function and gives, for each parameter, its allowed values. An
// allowed value "" means the parameter may be left out.
//
// One step (actual call) passes one expected call when, in this order:
//  1. its name equals the function document's name (exactly; with
//     [Options.UnderscoreToDot], a document name's dots become
//     underscores first, as BFCL does for models that cannot call dotted
//     names) — else simple_function_checker:wrong_func_name;
//  2. every parameter the document lists as required is given — else
//     simple_function_checker:missing_required;
//  3. every parameter given is in the document and in the possible answer
//     — else simple_function_checker:unexpected_param;
//  4. each value has the document's type, strictly, Python's way: string,
//     integer, float, boolean, array and tuple (a JSON array), dict (a
//     JSON object), any (a string). A number written with a point or an
//     exponent is a float, one without is an integer; an integer is
//     accepted for a float (at the top level only, as in BFCL); a boolean
//     is never a number. When the first allowed value that is not "" has
//     another type than the document's, the parameter is a "variable": a
//     value of that type is accepted too, and compared exactly (step 6).
//     An array's or tuple's elements are checked against items.type, one
//     level deep, against each allowed list in turn — else type_error:simple
//     or type_error:nested;
//  5. unless the parameter is a variable, its value is compared by type:
//     a string after normalisation (spaces and , . / - _ * ^ removed,
//     lower-cased as Python's str.lower does, İ to i and a combining dot
//     and a word's final Σ to ς, ' read as ") against the allowed strings
//     (value_error:string); a list element by element, its strings
//     normalised, against each allowed list (value_error:list/tuple); a
//     dict key by key against each allowed dict, whose values are lists of
//     allowed values ("" in one: the key may be left out)
//     (value_error:dict_key, value_error:dict_value); a list of dicts dict
//     by dict, in order (value_error:list_dict_count);
//  6. any other value (a number, a boolean, a variable) must equal an
//     allowed value as Python's == has it after json.loads: an integer
//     exactly, a float as its float64 (0.0600000000000000001 is 0.06), a
//     boolean equal to 1 or 0 — else value_error:others;
//  7. every parameter of the possible answer that was left out allows ""
//     — else simple_function_checker:missing_optional.
//
// The category ([Category], from a BFCL id such as simple_python_0,
// parallel_multiple_12 or live_simple_3-3-0) decides how the steps meet
// the expected calls:
//  1. simple: exactly one step (simple_function_checker:wrong_count),
//     checked against the first function document;
//  2. multiple: as many steps as expected calls (one)
//     (multiple_function_checker:wrong_count), the first step checked
//     against the document named by the expected call;
//  3. parallel and parallel_multiple: as many steps as expected calls
//     (parallel_function_checker_no_order:wrong_count), in any order, each
//     step used once (parallel_function_checker_no_order:cannot_find_match).
//     With [Official] matching (the default), each expected call in turn
//     takes the first unused step that passes it, as BFCL does: a step
//     taken early can leave a later call without one although a full
//     pairing exists. [Optimal] matching finds a maximum bipartite
//     matching instead, and the result notes when BFCL's first fit would
//     have said otherwise, and why.
//
// A Python tuple (a pylit.Tuple, from a prompting model's text) is a
// tuple, as in BFCL: it becomes a list where the document asks for a
// tuple, and anywhere else fails the type check (a tuple is not an
// array) or equals no allowed value.
//
// In the Java and JavaScript categories (simple_java, simple_javascript)
// each value must be a string of source text (else type_error:java or
// type_error:js); BFCL's type converters (java_type_converter,
// js_type_converter, reproduced with their quirks) make it a value, a
// text that does not parse as its type staying text, and the rules above
// check it with the language's document types. A value for a type the
// converters do not implement (Java's Set, Hashtable, Queue, Stack), a
// collection without items.type, and a text answer (BFCL parses Java and
// JavaScript text with tree-sitter) are errors of Evaluate: BFCL's run
// would stop, or trajeval cannot say what it would decide.
//
// The live_ categories follow the same rules. A trajectory with no step
// but a final text is a prompting model's answer: the text is decoded as
// BFCL's default decoder does (pylit.DecodePrompting, tuples kept) and its
// calls are checked; a text that does not decode fails with
// ast_decoder:decoder_failed, and its error says why.
//
// The score is 1 when the steps pass, else 0. The details give the
// alignment (expected call, step), the missing calls with the reason each
// step near them failed, the extra steps, and notes: category, matching,
// error_type and error (BFCL's words), and, under Optimal matching when
// the verdicts differ, official_valid and official_error_type.
//
// Parameters of one call are checked in name order (a trajectory keeps no
// key order): when several are wrong, the error reported may name another
// parameter than BFCL's, never another verdict.
package bfcl
