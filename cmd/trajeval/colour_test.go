package main

import "testing"

func TestUseColour(t *testing.T) {
	tests := []struct {
		name     string
		flag     string
		env      map[string]string
		terminal bool
		want     bool
		reason   string
	}{
		{"terminal", "auto", nil, true, true, "auto colours a terminal"},
		{"pipe", "auto", nil, false, false, "never colour into a file or a pipe by default"},
		{"NO_COLOR over auto", "auto", map[string]string{"NO_COLOR": "1"}, true, false, "no-color.org: any non-empty value turns colour off"},
		{"NO_COLOR empty", "auto", map[string]string{"NO_COLOR": ""}, true, true, "an empty NO_COLOR is unset"},
		{"NO_COLOR over FORCE_COLOR", "auto", map[string]string{"NO_COLOR": "1", "FORCE_COLOR": "1"}, true, false, "when both are set, no colour is the safer"},
		{"FORCE_COLOR", "auto", map[string]string{"FORCE_COLOR": "1"}, false, true, "CI logs show colours without a terminal"},
		{"FORCE_COLOR 0", "auto", map[string]string{"FORCE_COLOR": "0"}, false, false, "FORCE_COLOR=0 asks for none"},
		{"always over NO_COLOR", "always", map[string]string{"NO_COLOR": "1"}, false, true, "a flag on the command line overrides the environment"},
		{"never on a terminal", "never", map[string]string{"FORCE_COLOR": "1"}, true, false, "--color never wins over everything"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := useColour(tt.flag, func(k string) string { return tt.env[k] }, tt.terminal)
			if err != nil || got != tt.want {
				t.Errorf("useColour(%s, %v, terminal %v) = %v, %v; want %v: %s", tt.flag, tt.env, tt.terminal, got, err, tt.want, tt.reason)
			}
		})
	}
	if _, err := useColour("sometimes", func(string) string { return "" }, true); err == nil {
		t.Error("an unknown --color value is accepted")
	}
}
