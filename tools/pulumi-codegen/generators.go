package main

import (
	"github.com/hashicorp/hcl/v2"
	dotnet "github.com/pulumi/pulumi-dotnet/pulumi-language-dotnet/v3/codegen"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// Each entry calls pkg/codegen as the real host of its language does (pulumi/pulumi at the pinned version:
// sdk/nodejs/cmd/pulumi-language-nodejs, sdk/python/cmd/pulumi-language-python, sdk/go/pulumi-language-go;
// pulumi/pulumi-dotnet's pulumi-language-dotnet at the version tools/pulumi-codegen/go.mod names), with the
// defaults those hosts start with (no -force-tsc, runtime nodejs; Python's default toolchain, pip).
var generators = map[string]generator{
	"nodejs": {
		packageFiles: func(pkg *schema.Package, req *pulumirpc.GeneratePackageRequest, loader schema.ReferenceLoader) (
			map[string][]byte, error,
		) {
			return nodejs.GeneratePackage("pulumi-language-nodejs", pkg, req.ExtraFiles, req.LocalDependencies,
				req.Local, loader)
		},
		bindOptions: []pcl.BindOption{pcl.PreferOutputVersionedInvokes},
		programFiles: func(program *pcl.Program) (map[string][]byte, hcl.Diagnostics, error) {
			return nodejs.GenerateProgramWithOptions(program, nodejs.ProgramOptions{Runtime: "nodejs"})
		},
		project: func(req *pulumirpc.GenerateProjectRequest, project workspace.Project, program *pcl.Program) error {
			return nodejs.GenerateProject(req.TargetDirectory, project, program, req.LocalDependencies, false, "nodejs")
		},
	},
	"python": {
		packageFiles: func(pkg *schema.Package, req *pulumirpc.GeneratePackageRequest, loader schema.ReferenceLoader) (
			map[string][]byte, error,
		) {
			return python.GeneratePackage("pulumi-language-python", pkg, req.ExtraFiles, loader)
		},
		bindOptions:  []pcl.BindOption{pcl.PreferOutputVersionedInvokes},
		programFiles: python.GenerateProgram,
		project: func(req *pulumirpc.GenerateProjectRequest, project workspace.Project, program *pcl.Program) error {
			return python.GenerateProject(req.TargetDirectory, project, program, req.LocalDependencies, "", "pip")
		},
	},
	"go": {
		packageFiles: func(pkg *schema.Package, req *pulumirpc.GeneratePackageRequest, _ schema.ReferenceLoader) (
			map[string][]byte, error,
		) {
			if len(req.ExtraFiles) > 0 {
				return nil, errOverlays
			}
			return gogen.GeneratePackage("pulumi-language-go", pkg, req.LocalDependencies)
		},
		bindOptions:  []pcl.BindOption{pcl.PreferOutputVersionedInvokes},
		programFiles: gogen.GenerateProgram,
		project: func(req *pulumirpc.GenerateProjectRequest, project workspace.Project, program *pcl.Program) error {
			return gogen.GenerateProject(req.TargetDirectory, project, program, req.LocalDependencies)
		},
	},
	"dotnet": {
		packageFiles: func(pkg *schema.Package, req *pulumirpc.GeneratePackageRequest, _ schema.ReferenceLoader) (
			map[string][]byte, error,
		) {
			return dotnet.GeneratePackage("pulumi-language-dotnet", pkg, req.ExtraFiles, req.LocalDependencies)
		},
		programFiles: dotnet.GenerateProgram,
		project: func(req *pulumirpc.GenerateProjectRequest, project workspace.Project, program *pcl.Program) error {
			return dotnet.GenerateProject(req.TargetDirectory, project, program, req.LocalDependencies)
		},
	},
}
