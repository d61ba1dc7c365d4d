// A Go program as an Automation API inline program: the program `pulumi convert --language go` wrote
// (main.go) is compiled beside this file with its one call of pulumi.Run renamed inlineRun (the end-to-end
// suite does that), so its function runs in auto.UpsertStackInlineSource and the CLI needs no
// pulumi-language-go. `<binary> <up|preview|destroy>`; the stack, its project and its configuration come
// from the environment the suite sets (HOSTING_E2E_*); the result is one line of JSON on stdout.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func inlineRun(program pulumi.RunFunc) {
	if err := run(context.Background(), program, os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(ctx context.Context, program pulumi.RunFunc, step string) error {
	project := os.Getenv("HOSTING_E2E_PROJECT")
	stack, err := auto.UpsertStackInlineSource(ctx, os.Getenv("HOSTING_E2E_STACK"), project, program,
		auto.WorkDir(os.Getenv("HOSTING_E2E_WORK_DIR")),
		auto.Project(workspace.Project{
			Name:    tokens.PackageName(project),
			Runtime: workspace.NewProjectRuntimeInfo("go", nil),
			Backend: &workspace.ProjectBackend{URL: os.Getenv("PULUMI_BACKEND_URL")},
		}))
	if err != nil {
		return err
	}
	var config map[string]auto.ConfigValue
	if err := json.Unmarshal([]byte(os.Getenv("HOSTING_E2E_CONFIG")), &config); err != nil {
		return fmt.Errorf("HOSTING_E2E_CONFIG: %w", err)
	}
	if err := stack.SetAllConfig(ctx, config); err != nil {
		return err
	}
	var result any
	switch step {
	case "up":
		up, err := stack.Up(ctx)
		if err != nil {
			return err
		}
		outputs := map[string]any{}
		for key, output := range up.Outputs {
			outputs[key] = output.Value
		}
		result = map[string]any{"changes": up.Summary.ResourceChanges, "outputs": outputs}
	case "preview":
		preview, err := stack.Preview(ctx, optpreview.ExpectNoChanges())
		if err != nil {
			return err
		}
		result = map[string]any{"changes": preview.ChangeSummary}
	case "destroy":
		destroy, err := stack.Destroy(ctx)
		if err != nil {
			return err
		}
		result = map[string]any{"changes": destroy.Summary.ResourceChanges}
	default:
		return fmt.Errorf("the step is up, preview or destroy, not %q", step)
	}
	return json.NewEncoder(os.Stdout).Encode(result)
}
