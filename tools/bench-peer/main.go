// pulumi-resource-benchpeer: the Go provider the real-CLI benchmark rows (bench/cli.ts) measure the
// plugin against. It is written with pulumi-go-provider's infer package, as most new Pulumi providers
// in Go are, and its one resource, benchpeer:index:Container, has the inputs and outputs of
// hosting:index:Container, so that a program of N of either is the same shape to the engine. It calls
// no API: a create makes its outputs up, a read gives the state back, a delete forgets it. Where the
// hosting provider must call its API, the benchmark adds the simulator's own time for those calls.
// scripts/bench-peer.sh builds it into the cache, keyed by its version and its sources.
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/google/uuid"
	"github.com/pulumi/pulumi-go-provider/infer"
)

// Version is the peer's own version (scripts/bench-peer.sh sets it from its PEER_VERSION).
var Version = "0.1.0"

// Container is benchpeer:index:Container.
type Container struct{}

// ContainerArgs are hosting:index:Container's inputs, field for field.
type ContainerArgs struct {
	Name              *string           `pulumi:"name,optional"`
	ProjectID         *string           `pulumi:"projectId,optional"`
	Image             string            `pulumi:"image"`
	HTTPPort          *int              `pulumi:"httpPort,optional"`
	Env               map[string]string `pulumi:"env,optional"`
	Links             []string          `pulumi:"links,optional"`
	Replicas          *int              `pulumi:"replicas,optional"`
	CPUMilli          *int              `pulumi:"cpuMilli,optional"`
	MemoryMb          *int              `pulumi:"memoryMb,optional"`
	StorageGb         *int              `pulumi:"storageGb,optional"`
	Public            *bool             `pulumi:"public,optional"`
	DisplayName       *string           `pulumi:"displayName,optional"`
	Running           *bool             `pulumi:"running,optional"`
	RestartTrigger    *string           `pulumi:"restartTrigger,optional"`
	RollbackOnFailure *bool             `pulumi:"rollbackOnFailure,optional"`
}

// ContainerState is hosting:index:Container's outputs: its inputs and what the platform reports.
type ContainerState struct {
	ContainerArgs
	Status               string            `pulumi:"status"`
	PublicURL            string            `pulumi:"publicUrl"`
	InternalHost         string            `pulumi:"internalHost"`
	Runtime              string            `pulumi:"runtime"`
	Type                 string            `pulumi:"type"`
	CreatedAt            string            `pulumi:"createdAt"`
	UpdatedAt            string            `pulumi:"updatedAt"`
	MarketplaceApp       *string           `pulumi:"marketplaceApp,optional"`
	InjectedEnv          map[string]string `pulumi:"injectedEnv" provider:"secret"`
	LinksAwaitingRestart []string          `pulumi:"linksAwaitingRestart,optional"`
}

func (c *ContainerArgs) Annotate(a infer.Annotator) {
	a.SetDefault(&c.HTTPPort, 8080)
	a.SetDefault(&c.Running, true)
	a.SetDefault(&c.RollbackOnFailure, false)
}

// outputs are what the platform would report for an app of these inputs.
func outputs(id string, args ContainerArgs, created string) ContainerState {
	name := id
	if args.Name != nil {
		name = *args.Name
	}
	port := 8080
	if args.HTTPPort != nil {
		port = *args.HTTPPort
	}
	now := time.Now().UTC().Format(time.RFC3339)
	if created == "" {
		created = now
	}
	return ContainerState{
		ContainerArgs: args,
		Status:        "running",
		PublicURL:     fmt.Sprintf("https://%s.apps.example.com", name),
		InternalHost:  fmt.Sprintf("%s.p-%s.svc.cluster.local:%d", name, id[:8], port),
		Runtime:       "docker",
		Type:          "container",
		CreatedAt:     created,
		UpdatedAt:     now,
		InjectedEnv:   map[string]string{},
	}
}

func (Container) Create(
	ctx context.Context, req infer.CreateRequest[ContainerArgs],
) (infer.CreateResponse[ContainerState], error) {
	id := uuid.NewString()
	return infer.CreateResponse[ContainerState]{ID: id, Output: outputs(id, req.Inputs, "")}, nil
}

func (Container) Update(
	ctx context.Context, req infer.UpdateRequest[ContainerArgs, ContainerState],
) (infer.UpdateResponse[ContainerState], error) {
	return infer.UpdateResponse[ContainerState]{Output: outputs(req.ID, req.Inputs, req.State.CreatedAt)}, nil
}

func (Container) Delete(ctx context.Context, req infer.DeleteRequest[ContainerState]) (infer.DeleteResponse, error) {
	return infer.DeleteResponse{}, nil
}

func main() {
	provider, err := infer.NewProviderBuilder().
		WithResources(infer.Resource(Container{})).
		Build()
	if err != nil {
		fmt.Fprintf(os.Stderr, "error: %s\n", err)
		os.Exit(1)
	}
	if err := provider.Run(context.Background(), "benchpeer", Version); err != nil {
		fmt.Fprintf(os.Stderr, "error: %s\n", err)
		os.Exit(1)
	}
}
