package check

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// objects is one kustomization built: every object decoded strictly (an unknown or misplaced
// field is an error) into its API type.
type objects struct {
	namespaces []*corev1.Namespace
	configMaps map[string]*corev1.ConfigMap
	pvcs       []*corev1.PersistentVolumeClaim
	services   []*corev1.Service
	jobs       []*batchv1.Job
	deploys    []*appsv1.Deployment
}

func build(t *testing.T, dir string) objects {
	t.Helper()
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	res, err := k.Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		t.Fatalf("kustomize build %s: %v", dir, err)
	}
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, batchv1.AddToScheme, appsv1.AddToScheme} {
		if err := add(scheme); err != nil {
			t.Fatal(err)
		}
	}
	decode := serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()
	o := objects{configMaps: map[string]*corev1.ConfigMap{}}
	for _, r := range res.Resources() {
		y, err := r.AsYAML()
		if err != nil {
			t.Fatal(err)
		}
		obj, _, err := decode.Decode(y, nil, nil)
		if err != nil {
			t.Fatalf("%s: %s/%s: %v", dir, r.GetKind(), r.GetName(), err)
		}
		switch v := obj.(type) {
		case *corev1.Namespace:
			o.namespaces = append(o.namespaces, v)
		case *corev1.ConfigMap:
			o.configMaps[v.Name] = v
		case *corev1.PersistentVolumeClaim:
			o.pvcs = append(o.pvcs, v)
		case *corev1.Service:
			o.services = append(o.services, v)
		case *batchv1.Job:
			o.jobs = append(o.jobs, v)
		case *appsv1.Deployment:
			o.deploys = append(o.deploys, v)
		default:
			t.Fatalf("%s: an object of a kind this test does not check: %T", dir, obj)
		}
		if ns := obj.(metav1.Object).GetNamespace(); r.GetKind() != "Namespace" && ns != "cara" {
			t.Errorf("%s/%s is in namespace %q, not cara (whose Pod Security is restricted)", r.GetKind(), r.GetName(), ns)
		}
	}
	return o
}

// restricted holds a pod to Pod Security "restricted", latest version, with the admission
// controller's own checks.
func restricted(t *testing.T, meta *metav1.ObjectMeta, spec *corev1.PodSpec) []string {
	t.Helper()
	ev, err := policy.NewEvaluator(policy.DefaultChecks(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var forbidden []string
	for _, r := range ev.EvaluatePod(api.LevelVersion{Level: api.LevelRestricted, Version: api.LatestVersion()}, meta, spec) {
		if !r.Allowed {
			forbidden = append(forbidden, r.ForbiddenReason+": "+r.ForbiddenDetail)
		}
	}
	return forbidden
}

func checkRestricted(t *testing.T, name string, meta *metav1.ObjectMeta, spec *corev1.PodSpec) {
	t.Helper()
	if f := restricted(t, meta, spec); len(f) > 0 {
		t.Errorf("%s violates Pod Security restricted: %s", name, strings.Join(f, "; "))
	}
	// The same pod without the seccomp profile must be refused: the check bites.
	bare := spec.DeepCopy()
	bare.SecurityContext.SeccompProfile = nil
	if f := restricted(t, meta, bare); len(f) == 0 {
		t.Errorf("%s without seccompProfile passes restricted: the evaluator checks nothing", name)
	}
	if p := spec.SecurityContext.SeccompProfile; p == nil || p.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Errorf("%s: seccompProfile %v, want RuntimeDefault", name, p)
	}
	for _, c := range append(append([]corev1.Container{}, spec.InitContainers...), spec.Containers...) {
		if sc := c.SecurityContext; sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
			t.Errorf("%s: container %s does not have a read-only root file system", name, c.Name)
		}
		if c.Resources.Limits.Memory().IsZero() {
			t.Errorf("%s: container %s has no memory limit", name, c.Name)
		}
	}
}

func TestNamespaceEnforcesRestricted(t *testing.T) {
	for _, dir := range []string{"../sweep", "../room"} {
		o := build(t, dir)
		if len(o.namespaces) != 1 {
			t.Fatalf("%s: %d namespaces, want cara", dir, len(o.namespaces))
		}
		if l := o.namespaces[0].Labels; l["pod-security.kubernetes.io/enforce"] != "restricted" {
			t.Errorf("%s: namespace labels %v: restricted is not enforced", dir, l)
		}
	}
}

func TestSweepJob(t *testing.T) {
	o := build(t, "../sweep")
	if len(o.jobs) != 1 || len(o.pvcs) != 1 {
		t.Fatalf("%d jobs and %d volume claims, want one of each", len(o.jobs), len(o.pvcs))
	}
	job := o.jobs[0]
	params := o.configMaps["cara-sweep"].Data
	spec := &job.Spec.Template.Spec
	checkRestricted(t, "job/"+job.Name, &job.Spec.Template.ObjectMeta, spec)
	shards := params["SHARDS"]
	if fmt.Sprint(*job.Spec.Completions) != shards || fmt.Sprint(*job.Spec.Parallelism) != shards {
		t.Errorf("completions %d, parallelism %d, want SHARDS = %s in both", *job.Spec.Completions, *job.Spec.Parallelism, shards)
	}
	if m := job.Spec.CompletionMode; m == nil || *m != batchv1.IndexedCompletion {
		t.Errorf("completion mode %v, want Indexed", m)
	}
	if job.Spec.BackoffLimitPerIndex == nil || *job.Spec.BackoffLimitPerIndex < 1 {
		t.Error("no backoffLimitPerIndex: one failing index would use up every index's retries")
	}
	if job.Spec.TTLSecondsAfterFinished == nil {
		t.Error("no ttlSecondsAfterFinished: applying again needs kubectl delete job")
	}
	if spec.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("restartPolicy %s: backoffLimitPerIndex and podFailurePolicy need Never", spec.RestartPolicy)
	}
	if p := o.pvcs[0]; p.Spec.AccessModes[0] != corev1.ReadWriteMany {
		t.Errorf("the results volume is %v: the shards write from many nodes", p.Spec.AccessModes)
	}
	sweep := spec.InitContainers[0]
	cpu, mem := sweep.Resources.Requests[corev1.ResourceCPU], sweep.Resources.Limits[corev1.ResourceMemory]
	if cpu.Cmp(resource.MustParse(params["CPUS"])) != 0 || mem.Cmp(resource.MustParse(params["MEMORY"])) != 0 {
		t.Errorf("the shard asks for %s cores and %s, want CPUS = %s and MEMORY = %s", cpu.String(), mem.String(), params["CPUS"], params["MEMORY"])
	}
	// Every $(VAR) in a command line is one the container's environment defines.
	for _, c := range append(append([]corev1.Container{}, spec.InitContainers...), spec.Containers...) {
		env := containerEnv(t, c, params, "0")
		for _, a := range c.Args {
			for _, m := range varRef.FindAllStringSubmatch(a, -1) {
				if _, ok := env[m[1]]; !ok {
					t.Errorf("container %s: $(%s) in %q is not in its environment", c.Name, m[1], a)
				}
			}
		}
	}
}

func TestRoomDeployment(t *testing.T) {
	o := build(t, "../room")
	if len(o.deploys) != 1 || len(o.pvcs) != 1 {
		t.Fatalf("%d deployments and %d volume claims, want one of each", len(o.deploys), len(o.pvcs))
	}
	d := o.deploys[0]
	spec := &d.Spec.Template.Spec
	checkRestricted(t, "deployment/"+d.Name, &d.Spec.Template.ObjectMeta, spec)
	if d.Spec.Replicas == nil || *d.Spec.Replicas != 1 || d.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType {
		t.Errorf("replicas %v, strategy %s: a room is one process, and its volume mounts in one pod", d.Spec.Replicas, d.Spec.Strategy.Type)
	}
	params := o.configMaps["cara-room"].Data
	c := spec.Containers[0]
	env := containerEnv(t, c, params, "")
	args := expand(c.Args, env)
	flag := func(name string) string {
		for _, a := range args {
			if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
				return v
			}
		}
		return ""
	}
	// --memory, the room's budget, within the pod's limit with a margin for the Go runtime.
	limit := c.Resources.Limits[corev1.ResourceMemory]
	budget := resource.MustParse(strings.TrimSuffix(strings.Replace(flag("memory"), "iB", "i", 1), "B"))
	if b, l := budget.Value(), limit.Value(); b <= 0 || float64(b) > 0.85*float64(l) {
		t.Errorf("--memory %s against a limit of %s: the budget must sit within 85 %% of the limit", flag("memory"), limit.String())
	}
	// State on the volume: the host key and the answers.
	state := ""
	for _, m := range c.VolumeMounts {
		if m.Name == "state" {
			state = m.MountPath
		}
	}
	for _, f := range []string{"host-key", "answers"} {
		if state == "" || !strings.HasPrefix(flag(f), state+"/") {
			t.Errorf("--%s %s is not on the state volume (mounted at %q)", f, flag(f), state)
		}
	}
	if spec.Volumes[0].PersistentVolumeClaim == nil || spec.Volumes[0].PersistentVolumeClaim.ClaimName != o.pvcs[0].Name {
		t.Errorf("the state volume is not the room's claim")
	}
	// Probes on the metrics port; a Service for students on 23234.
	metricsPort := ""
	for _, p := range c.Ports {
		if p.Name == "metrics" {
			metricsPort = fmt.Sprint(p.ContainerPort)
		}
	}
	if !strings.HasSuffix(flag("metrics"), ":"+metricsPort) || c.LivenessProbe == nil || c.LivenessProbe.HTTPGet == nil || c.LivenessProbe.HTTPGet.Port.String() != "metrics" {
		t.Errorf("liveness probe %+v, --metrics %s, metrics port %s", c.LivenessProbe, flag("metrics"), metricsPort)
	}
	var ssh bool
	for _, s := range o.services {
		for _, p := range s.Spec.Ports {
			ssh = ssh || (p.Port == 23234 && p.TargetPort.String() == "ssh")
		}
	}
	if !ssh {
		t.Error("no Service on 23234 for the students")
	}
}

var varRef = regexp.MustCompile(`\$\(([A-Z_][A-Z0-9_]*)\)`)

// containerEnv is a container's environment as the kubelet builds it: the ConfigMap's keys
// (envFrom) and the downward API's completion index.
func containerEnv(t *testing.T, c corev1.Container, params map[string]string, index string) map[string]string {
	t.Helper()
	env := map[string]string{}
	if len(c.EnvFrom) > 0 {
		for k, v := range params {
			env[k] = v
		}
	}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom != nil && e.ValueFrom.FieldRef != nil && strings.Contains(e.ValueFrom.FieldRef.FieldPath, "job-completion-index"):
			env[e.Name] = index
		case e.ValueFrom == nil:
			env[e.Name] = e.Value
		default:
			t.Fatalf("container %s: env %s from %v, which this test cannot give", c.Name, e.Name, e.ValueFrom)
		}
	}
	return env
}

// expand replaces $(VAR) as the kubelet does (an unknown reference stays as it is).
func expand(args []string, env map[string]string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = varRef.ReplaceAllStringFunc(a, func(m string) string {
			if v, ok := env[m[2:len(m)-1]]; ok {
				return v
			}
			return m
		})
	}
	return out
}

// The sweep's pods as the kubelet runs them: each index's init container (its shard) and then its
// container (the merge), all indexes at once, with the parameters made small. Exactly the pod that
// completes the sweep writes it, and the merged file is the sweep run in one process, byte for byte.
func TestSweepPodsMergeOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cara and runs a small sweep")
	}
	o := build(t, "../sweep")
	spec := o.jobs[0].Spec.Template.Spec
	params := map[string]string{}
	for k, v := range o.configMaps["cara-sweep"].Data {
		params[k] = v
	}
	params["SEEDS"], params["SHARDS"], params["COSTS"], params["CPUS"] = "3", "3", "1:40:4", "1"
	bin := filepath.Join(t.TempDir(), "cara")
	if out, err := exec.Command("go", "build", "-C", "../../..", "-o", bin, "./cmd/cara").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	results := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	run := func(c corev1.Container, index string) (string, error) {
		args := expand(c.Args, containerEnv(t, c, params, index))
		for i, a := range args {
			args[i] = strings.ReplaceAll(a, "/results", results)
		}
		// The scenario's forest cut to 5 trees: the manifests' commands, made quick.
		if args[0] == "sweep" {
			args = append(args, "--trees=5")
		}
		cmd := exec.CommandContext(ctx, bin, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		return stderr.String(), err
	}
	var wg sync.WaitGroup
	logs := make([]string, 3)
	for k := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			index := fmt.Sprint(k)
			for _, c := range spec.InitContainers {
				if log, err := run(c, index); err != nil {
					t.Errorf("pod %d, init container %s: %v\n%s", k, c.Name, err, log)
					return
				}
			}
			for _, c := range spec.Containers {
				log, err := run(c, index)
				if err != nil {
					t.Errorf("pod %d, container %s: %v\n%s", k, c.Name, err, log)
				}
				logs[k] = log
			}
		}()
	}
	wg.Wait()
	merged := 0
	for _, l := range logs {
		if strings.Contains(l, "merged 3 file(s)") {
			merged++
		} else if !strings.Contains(l, "not merged yet") {
			t.Errorf("a merge container said %q", l)
		}
	}
	if merged == 0 {
		t.Fatalf("no pod merged the sweep: %q", logs)
	}
	whole := filepath.Join(t.TempDir(), "whole.jsonl")
	if out, err := exec.Command(bin, "sweep", params["SCENARIO"], "--seeds=3", "--costs=1:40:4", "--trees=5", "-o", whole).CombinedOutput(); err != nil {
		t.Fatalf("the sweep in one process: %v\n%s", err, out)
	}
	a, _ := os.ReadFile(whole)
	b, err := os.ReadFile(filepath.Join(results, params["SCENARIO"]+".jsonl"))
	if err != nil || !bytes.Equal(a, b) {
		t.Errorf("the pods' merged sweep differs from the sweep in one process (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(results, "figures", params["SCENARIO"]+"-sweep.png")); err != nil {
		t.Errorf("no figures: %v", err)
	}
}
