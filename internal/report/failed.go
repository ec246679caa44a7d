package report

import (
	"fmt"

	"github.com/trajeval/trajeval"
)

// FailedOnly returns w set to report only the cases that did not pass
// (failed, or could not be scored), as eval --failed-only does. Its rules:
//  1. the summary still counts every case: it comes from Close, not from
//     the rows shown;
//  2. text and Markdown keep the trials of each case (pass rates, pass@k)
//     over every run, passing runs included;
//  3. JSON Lines and the JSON document leave passing rows out;
//  4. JUnit and HTML are refused: a CI test page counts the tests it is
//     given, and the page has its own filter by status.
func FailedOnly(w Writer) (Writer, error) {
	switch x := w.(type) {
	case *Text:
		x.FailedOnly = true
		return x, nil
	case *Markdown:
		x.FailedOnly = true
		return x, nil
	case *JSONL, *jsonDoc:
		return notPassed{w}, nil
	}
	return nil, fmt.Errorf("--failed-only applies to the text, markdown, json and jsonl reports, not to %s (JUnit counts the tests it is given; the HTML page filters by status itself)", formatOf(w))
}

// notPassed passes on the rows that did not pass.
type notPassed struct{ w Writer }

func (n notPassed) Case(r trajeval.CaseResult) error {
	if r.Status == trajeval.StatusPass {
		return nil
	}
	return n.w.Case(r)
}

func (n notPassed) Close(s Summary) error { return n.w.Close(s) }

func formatOf(w Writer) string {
	switch w.(type) {
	case *JUnit:
		return "junit"
	case *HTML:
		return "html"
	}
	return fmt.Sprintf("%T", w)
}
