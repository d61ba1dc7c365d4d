// pulumi-codegen: Pulumi's own code generators behind the language plugin interface, for the languages whose
// language host cannot be built here (the Go module proxy of this project's machines refuses
// pulumi-language-nodejs, -python and -go, and .NET's generator fetches its logo from the internet).
//
// scripts/pulumi-codegen.sh builds it and links it as pulumi-language-<language> in a folder that only
// `make sdk` and the docs' `pulumi convert` put on PATH, where the real host is missing. The engine starts it
// as it starts any language host (`pulumi-language-<language> <engine address>`); it answers the code
// generation calls, GeneratePackage (pulumi package gen-sdk), GenerateProject and GenerateProgram
// (pulumi convert), by calling the same pkg/codegen functions with the same arguments as the real host of
// that language at the pinned version, so the files it writes are the ones the real host writes. Every
// other call (running a program, installing dependencies) is refused: it is not a runtime.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
)

var errOverlays = fmt.Errorf("overlays are not supported for Go")

// version is set at build time to the pulumi/pulumi version the generators come from.
var version = "dev"

func main() {
	language := strings.TrimPrefix(filepath.Base(os.Args[0]), "pulumi-language-")
	generator, ok := generators[language]
	if !ok {
		fmt.Fprintf(os.Stderr, "pulumi-codegen: started as %q; link it as pulumi-language-<language> for one of %s\n",
			filepath.Base(os.Args[0]), strings.Join(languages(), ", "))
		os.Exit(1)
	}
	if language == "dotnet" {
		serveDotnetLogoLocally()
	}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, &host{language: language, generator: generator})
			return nil
		},
		Options: rpcutil.OpenTracingServerInterceptorOptions(nil),
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-codegen: could not start the language host's gRPC server: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-codegen: the gRPC server stopped: %v\n", err)
		os.Exit(1)
	}
}

// generator is one language's code generation, as its real host calls pkg/codegen.
type generator struct {
	// packageFiles is GeneratePackage's call of <language>codegen.GeneratePackage.
	packageFiles func(pkg *schema.Package, req *pulumirpc.GeneratePackageRequest, loader schema.ReferenceLoader) (
		map[string][]byte, error)
	// bindOptions are the host's extra pcl options for GenerateProject and GenerateProgram.
	bindOptions []pcl.BindOption
	// programFiles is GenerateProgram's call of <language>codegen.GenerateProgram.
	programFiles func(program *pcl.Program) (map[string][]byte, hcl.Diagnostics, error)
	// project is GenerateProject's call of <language>codegen.GenerateProject.
	project func(req *pulumirpc.GenerateProjectRequest, project workspace.Project, program *pcl.Program) error
}

func languages() []string {
	names := make([]string, 0, len(generators))
	for name := range generators {
		names = append(names, name)
	}
	return names
}

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	language  string
	generator generator
}

func (h *host) refuse(call string) error {
	return status.Errorf(codes.Unimplemented,
		"pulumi-language-%s here is pulumi-hosting's code generator (tools/pulumi-codegen), not a runtime: it cannot %s. Install the Pulumi CLI (https://www.pulumi.com/docs/install/), which includes the %s language host",
		h.language, call, h.language)
}

func (h *host) Handshake(context.Context, *pulumirpc.LanguageHandshakeRequest) (
	*pulumirpc.LanguageHandshakeResponse, error,
) {
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

func (h *host) Run(context.Context, *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	return nil, h.refuse("run a program")
}

func (h *host) InstallDependencies(*pulumirpc.InstallDependenciesRequest,
	pulumirpc.LanguageRuntime_InstallDependenciesServer,
) error {
	return h.refuse("install a program's dependencies")
}

// Link: `pulumi convert` links the SDKs it generated into the project, and asks even when it generated none
// (it generates only parameterized packages'): with none, there is nothing to do, as for the real hosts.
func (h *host) Link(_ context.Context, req *pulumirpc.LinkRequest) (*pulumirpc.LinkResponse, error) {
	if len(req.Packages) > 0 {
		return nil, h.refuse("link a generated SDK into a project")
	}
	return &pulumirpc.LinkResponse{}, nil
}

// GeneratePackage: `pulumi package gen-sdk`. The schema is bound as every real host binds it, then the
// language's generator writes its files into the requested directory.
func (h *host) GeneratePackage(_ context.Context, req *pulumirpc.GeneratePackageRequest) (
	*pulumirpc.GeneratePackageResponse, error,
) {
	loader, err := schema.NewLoaderClient(req.LoaderTarget)
	if err != nil {
		return nil, err
	}
	defer loader.Close()

	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(req.Schema), &spec); err != nil {
		return nil, err
	}
	pkg, diags, err := schema.BindSpec(spec, schema.NewCachedLoader(loader), schema.ValidationOptions{
		AllowDanglingReferences: true,
	})
	if err != nil {
		return nil, err
	}
	rpcDiagnostics := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() {
		return &pulumirpc.GeneratePackageResponse{Diagnostics: rpcDiagnostics}, nil
	}
	files, err := h.generator.packageFiles(pkg, req, schema.NewCachedLoader(loader))
	if err != nil {
		return nil, err
	}
	for name, data := range files {
		path := filepath.Join(req.Directory, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("could not create output directory %s: %w", filepath.Dir(name), err)
		}
		if err := os.WriteFile(path, data, 0o600); err != nil {
			return nil, fmt.Errorf("could not write output file %s: %w", name, err)
		}
	}
	return &pulumirpc.GeneratePackageResponse{Diagnostics: rpcDiagnostics}, nil
}

// GenerateProject: `pulumi convert --language <language>` writes a project from a PCL program.
func (h *host) GenerateProject(_ context.Context, req *pulumirpc.GenerateProjectRequest) (
	*pulumirpc.GenerateProjectResponse, error,
) {
	loader, err := schema.NewLoaderClient(req.LoaderTarget)
	if err != nil {
		return nil, err
	}
	defer loader.Close()

	options := append([]pcl.BindOption{}, h.generator.bindOptions...)
	if !req.Strict {
		options = append(options, pcl.NonStrictBindOptions()...)
	}
	program, diags, err := pcl.BindDirectory(req.SourceDirectory, schema.NewCachedLoader(loader), options...)
	if err != nil {
		return nil, err
	}
	rpcDiagnostics := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() {
		return &pulumirpc.GenerateProjectResponse{Diagnostics: rpcDiagnostics}, nil
	}
	if program == nil {
		return nil, fmt.Errorf("internal error: program was nil")
	}
	var project workspace.Project
	if err := json.Unmarshal([]byte(req.Project), &project); err != nil {
		return nil, err
	}
	if err := h.generator.project(req, project, program); err != nil {
		return nil, err
	}
	return &pulumirpc.GenerateProjectResponse{Diagnostics: rpcDiagnostics}, nil
}

// GenerateProgram: a PCL program's source in this language.
func (h *host) GenerateProgram(_ context.Context, req *pulumirpc.GenerateProgramRequest) (
	*pulumirpc.GenerateProgramResponse, error,
) {
	loader, err := schema.NewLoaderClient(req.LoaderTarget)
	if err != nil {
		return nil, err
	}
	defer loader.Close()

	parser := syntax.NewParser()
	for path, contents := range req.Source {
		if err := parser.ParseFile(strings.NewReader(contents), path); err != nil {
			return nil, err
		}
		if parser.Diagnostics.HasErrors() {
			return nil, parser.Diagnostics
		}
	}
	options := append([]pcl.BindOption{}, h.generator.bindOptions...)
	if !req.Strict {
		options = append(options, pcl.NonStrictBindOptions()...)
	}
	program, diags, err := pcl.BindProgram(parser.Files, schema.NewCachedLoader(loader), options...)
	if err != nil {
		return nil, err
	}
	rpcDiagnostics := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: rpcDiagnostics}, nil
	}
	if program == nil {
		return nil, fmt.Errorf("internal error: program was nil")
	}
	files, diags, err := h.generator.programFiles(program)
	if err != nil {
		return nil, err
	}
	rpcDiagnostics = append(rpcDiagnostics, plugin.HclDiagnosticsToRPCDiagnostics(diags)...)
	return &pulumirpc.GenerateProgramResponse{Source: files, Diagnostics: rpcDiagnostics}, nil
}
