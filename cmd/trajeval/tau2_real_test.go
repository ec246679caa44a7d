package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestEval_tau2Parity scores real τ²-bench results files (two agents'
// recorded runs, testdata/real/README.md) against their own tasks, and
// holds each simulation's ACTION and COMMUNICATE components against the
// checks τ²-bench itself wrote into the file (reward_info's action_checks
// and communicate_checks): every expected action matched or missed as τ²
// found it, every communicate check met or not as τ² found it.
//
// τ² computes those checks whatever a task's reward_basis; these tasks'
// basis is DB and COMMUNICATE, and DB needs τ²'s domain database, which a
// recording does not hold. So the tasks, taken from the results file
// itself, are scored with the basis ACTION and COMMUNICATE.
func TestEval_tau2Parity(t *testing.T) {
	for _, name := range []string{"tau2-enhanced-airline-llm-agent.json", "tau2-enhanced-airline-retry-agent.json"} {
		t.Run(name, func(t *testing.T) {
			results := filepath.Join("../../testdata/real/tau2", name)
			data, err := os.ReadFile(results)
			if err != nil {
				t.Fatal(err)
			}
			var file struct {
				Tasks       []map[string]any `json:"tasks"`
				Simulations []struct {
					TaskID     string `json:"task_id"`
					Trial      int    `json:"trial"`
					RewardInfo struct {
						ActionChecks []struct {
							Action struct {
								Name string `json:"name"`
							} `json:"action"`
							ActionMatch bool `json:"action_match"`
						} `json:"action_checks"`
						CommunicateChecks []struct {
							Met bool `json:"met"`
						} `json:"communicate_checks"`
					} `json:"reward_info"`
				} `json:"simulations"`
			}
			if err := json.Unmarshal(data, &file); err != nil {
				t.Fatal(err)
			}
			for _, task := range file.Tasks {
				task["evaluation_criteria"].(map[string]any)["reward_basis"] = []string{"ACTION", "COMMUNICATE"}
			}
			tasks := filepath.Join(t.TempDir(), "tasks.json")
			out, _ := json.Marshal(file.Tasks)
			if err := os.WriteFile(tasks, out, 0o644); err != nil {
				t.Fatal(err)
			}
			got := tau2Eval(t, tasks, results)
			checked := 0
			for _, sim := range file.Simulations {
				key := fmt.Sprintf("%s/%d", sim.TaskID, sim.Trial+1)
				g, ok := got[key]
				if !ok {
					t.Errorf("task %s trial %d: no row", sim.TaskID, sim.Trial)
					continue
				}
				for i, ac := range sim.RewardInfo.ActionChecks {
					if g.actionMatched[i+1] != ac.ActionMatch {
						t.Errorf("task %s trial %d: action %d (%s) matched %v, τ² says %v",
							sim.TaskID, sim.Trial, i+1, ac.Action.Name, g.actionMatched[i+1], ac.ActionMatch)
					}
					checked++
				}
				if g.actions != len(sim.RewardInfo.ActionChecks) {
					t.Errorf("task %s trial %d: %d expected actions, τ² checked %d", sim.TaskID, sim.Trial, g.actions, len(sim.RewardInfo.ActionChecks))
				}
				met := true
				for _, cc := range sim.RewardInfo.CommunicateChecks {
					met = met && cc.Met
					checked++
				}
				if g.communicate != met {
					t.Errorf("task %s trial %d: COMMUNICATE met %v, τ² says %v", sim.TaskID, sim.Trial, g.communicate, met)
				}
			}
			if checked == 0 {
				t.Fatal("no τ² check compared")
			}
		})
	}
}

type tau2Verdict struct {
	actions       int          // expected actions
	actionMatched map[int]bool // by the action's place, from 1
	communicate   bool
}

// tau2Eval runs trajeval eval on a task file with --traces results and
// returns, by "task/attempt", what its ACTION and COMMUNICATE components
// found.
func tau2Eval(t *testing.T, tasks, results string) map[string]tau2Verdict {
	t.Helper()
	got := map[string]tau2Verdict{}
	for _, line := range evalRows(t, tasks, "--traces", results, "--no-db", "-q") {
		var row struct {
			ID         string `json:"id"`
			Attempt    int    `json:"attempt"`
			Evaluators []struct {
				Members []struct {
					Name    string  `json:"name"`
					Score   float64 `json:"score"`
					Details struct {
						Expected int `json:"expected"`
						Matched  []struct {
							Item int `json:"item"`
						} `json:"matched"`
					} `json:"details"`
				} `json:"members"`
			} `json:"evaluators"`
		}
		if err := json.Unmarshal(line, &row); err != nil {
			t.Fatalf("result row %q: %v", line, err)
		}
		if row.Attempt == 0 || len(row.Evaluators) != 1 {
			continue // a task with no simulation in the file
		}
		v := tau2Verdict{actionMatched: map[int]bool{}}
		for _, m := range row.Evaluators[0].Members {
			switch m.Name {
			case "ACTION":
				v.actions = m.Details.Expected
				for _, x := range m.Details.Matched {
					v.actionMatched[x.Item] = true
				}
			case "COMMUNICATE":
				v.communicate = m.Score == 1
			}
		}
		got[fmt.Sprintf("%s/%d", row.ID, row.Attempt)] = v
	}
	return got
}
