// helm-render renders a Helm chart the way `helm template` does, for a machine without helm.
//
// It is a copy of the rendering core of Helm 3 (pkg/engine/engine.go and funcs.go, pkg/chartutil
// values coalescing), built on the same libraries Helm uses: Go's text/template, Sprig v3
// (Debian's golang-github-masterminds-sprig-dev) and sigs.k8s.io/yaml (golang-k8s-sigs-yaml-dev).
// What it does not do, and `helm template` does: chart dependencies (subcharts), .Files,
// values.schema.json, --set, `lookup` against a cluster (Helm's template command answers an
// empty map too), toToml, ordering manifests by kind, and checking that each one parses as YAML
// (the test parses them).
//
// Usage: helm-render [-name RELEASE] [-namespace NS] [-kube-version v1.30.0] [-f values.yaml]... CHART_DIR
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"text/template"

	// Sprig v3 (3.2.3): Debian installs it at the v1 import path, built here in GOPATH mode.
	"github.com/Masterminds/sprig"
	"sigs.k8s.io/yaml"
)

type valueFiles []string

func (v *valueFiles) String() string     { return strings.Join(*v, ",") }
func (v *valueFiles) Set(s string) error { *v = append(*v, s); return nil }

// capabilities mirrors the parts of Helm's chartutil.Capabilities a chart may read.
type kubeVersion struct{ Version, Major, Minor, GitVersion string }

func (k kubeVersion) String() string { return k.Version }

type versionSet []string

func (v versionSet) Has(apiVersion string) bool {
	for _, each := range v {
		if each == apiVersion {
			return true
		}
	}
	return false
}

type capabilities struct {
	KubeVersion kubeVersion
	APIVersions versionSet
}

func readYAMLMap(file string) (map[string]interface{}, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	out := map[string]interface{}{}
	if err := yaml.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return out, nil
}

// coalesce merges user-supplied values over the chart's defaults as Helm does: maps are merged
// key by key, anything else is replaced, and a null deletes the default.
func coalesce(dst, src map[string]interface{}) map[string]interface{} {
	for key, value := range src {
		if value == nil {
			delete(dst, key)
			continue
		}
		srcMap, srcIsMap := value.(map[string]interface{})
		dstMap, dstIsMap := dst[key].(map[string]interface{})
		if srcIsMap && dstIsMap {
			dst[key] = coalesce(dstMap, srcMap)
		} else {
			dst[key] = value
		}
	}
	return dst
}

func toYAML(v interface{}) string {
	data, err := yaml.Marshal(v)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(string(data), "\n")
}

func fromYAML(str string) map[string]interface{} {
	m := map[string]interface{}{}
	if err := yaml.Unmarshal([]byte(str), &m); err != nil {
		m["Error"] = err.Error()
	}
	return m
}

func toJSON(v interface{}) string {
	data, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(data)
}

func fromJSON(str string) map[string]interface{} {
	m := map[string]interface{}{}
	if err := json.Unmarshal([]byte(str), &m); err != nil {
		m["Error"] = err.Error()
	}
	return m
}

const recursionMaxNums = 1000

func funcMap(t *template.Template) template.FuncMap {
	f := sprig.TxtFuncMap()
	// Helm removes these: a chart must not read the environment of whoever renders it.
	delete(f, "env")
	delete(f, "expandenv")
	included := map[string]int{}
	f["toYaml"] = toYAML
	f["fromYaml"] = fromYAML
	f["toJson"] = toJSON
	f["fromJson"] = fromJSON
	f["include"] = func(name string, data interface{}) (string, error) {
		var buf strings.Builder
		if included[name] > recursionMaxNums {
			return "", fmt.Errorf("rendering template has a nested reference name: %s", name)
		}
		included[name]++
		err := t.ExecuteTemplate(&buf, name, data)
		included[name]--
		return buf.String(), err
	}
	f["tpl"] = func(text string, data interface{}) (string, error) {
		clone, err := t.Clone()
		if err != nil {
			return "", err
		}
		parsed, err := clone.New("tpl").Parse(text)
		if err != nil {
			return "", err
		}
		var buf strings.Builder
		if err := parsed.Execute(&buf, data); err != nil {
			return "", err
		}
		return strings.ReplaceAll(buf.String(), "<no value>", ""), nil
	}
	f["required"] = func(warn string, val interface{}) (interface{}, error) {
		if val == nil {
			return val, errors.New(warn)
		}
		if s, ok := val.(string); ok && s == "" {
			return val, errors.New(warn)
		}
		return val, nil
	}
	f["lookup"] = func(string, string, string, string) (map[string]interface{}, error) {
		return map[string]interface{}{}, nil
	}
	return f
}

func main() {
	var files valueFiles
	release := flag.String("name", "locus", "release name")
	namespace := flag.String("namespace", "default", "release namespace")
	kube := flag.String("kube-version", "v1.30.0", "Kubernetes version for .Capabilities")
	flag.Var(&files, "f", "values file (repeatable; later files win)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: helm-render [-name R] [-namespace NS] [-f values.yaml]... CHART_DIR")
		os.Exit(2)
	}
	if err := render(flag.Arg(0), *release, *namespace, *kube, files); err != nil {
		fmt.Fprintln(os.Stderr, "Error:", err)
		os.Exit(1)
	}
}

func render(chartDir, release, namespace, kube string, files []string) error {
	meta, err := readYAMLMap(filepath.Join(chartDir, "Chart.yaml"))
	if err != nil {
		return err
	}
	chartName, _ := meta["name"].(string)
	if chartName == "" {
		return errors.New("Chart.yaml: name is required")
	}
	values, err := readYAMLMap(filepath.Join(chartDir, "values.yaml"))
	if err != nil {
		return err
	}
	for _, file := range files {
		override, err := readYAMLMap(file)
		if err != nil {
			return err
		}
		values = coalesce(values, override)
	}
	// Helm hands templates the chart's metadata struct: its fields are capitalised.
	chart := map[string]interface{}{}
	for key, value := range meta {
		chart[strings.ToUpper(key[:1])+key[1:]] = value
	}
	major, minor := "1", "30"
	if parts := strings.Split(strings.TrimPrefix(kube, "v"), "."); len(parts) >= 2 {
		major, minor = parts[0], parts[1]
	}
	top := map[string]interface{}{
		"Values": values,
		"Chart":  chart,
		"Release": map[string]interface{}{
			"Name": release, "Namespace": namespace, "Service": "Helm",
			"IsInstall": true, "IsUpgrade": false, "Revision": 1,
		},
		"Capabilities": capabilities{
			KubeVersion: kubeVersion{Version: kube, Major: major, Minor: minor, GitVersion: kube},
			APIVersions: versionSet{
				"v1", "apps/v1", "batch/v1", "policy/v1", "autoscaling/v2", "networking.k8s.io/v1",
				"monitoring.coreos.com/v1",
			},
		},
	}

	templatesDir := filepath.Join(chartDir, "templates")
	var names []string
	sources := map[string]string{}
	err = filepath.Walk(templatesDir, func(file string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(chartDir, file)
		name := path.Join(chartName, filepath.ToSlash(rel))
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		names = append(names, name)
		sources[name] = string(data)
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(names)

	t := template.New("gotpl").Option("missingkey=zero")
	t.Funcs(funcMap(t))
	for _, name := range names {
		if _, err := t.New(name).Parse(sources[name]); err != nil {
			return fmt.Errorf("parse error in %q: %w", name, err)
		}
	}
	var out strings.Builder
	for _, name := range names {
		base := path.Base(name)
		// Partials (_helpers.tpl) define templates; NOTES.txt is not a manifest (`helm template`
		// leaves it out too).
		if strings.HasPrefix(base, "_") || base == "NOTES.txt" {
			continue
		}
		top["Template"] = map[string]interface{}{"Name": name, "BasePath": path.Join(chartName, "templates")}
		var buf strings.Builder
		if err := t.ExecuteTemplate(&buf, name, top); err != nil {
			return err
		}
		text := strings.ReplaceAll(buf.String(), "<no value>", "")
		if strings.TrimSpace(text) == "" {
			continue
		}
		fmt.Fprintf(&out, "---\n# Source: %s\n%s\n", name, strings.TrimSpace(text))
	}
	_, err = os.Stdout.WriteString(out.String())
	return err
}
