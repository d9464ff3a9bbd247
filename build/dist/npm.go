package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// launcherSource is the launcher of both npm/askuser and npm/askuser-hub:
// each package gets it as bin/<program>.js, and it runs the binary its
// package.json's name names.
const launcherSource = "npm/launcher.js"

// opencodePluginSource is askuser's OpenCode plugin (package opencode),
// which @askuser/askuser ships as opencodePluginFile beside its launcher.
const (
	opencodePluginSource = "opencode/plugin.js"
	opencodePluginFile   = "opencode-plugin.js"
)

// dialogModuleFile is where the Pi package holds askuser's dialog
// compiled to WebAssembly (cmd/askuser-dialog-wasm), which it runs inside
// Pi to draw a key's frame at once; pi/src/wasm.ts looks for it there.
const dialogModuleFile = "bin/askuser-dialog.wasm"

// packAll stages every npm package under out/npm and packs each into out.
// module is the dialog module the Pi package ships.
func packAll(out string, targets []platform, rel release, module string) error {
	stage := filepath.Join(out, "npm")
	var dirs []string
	for _, g := range programs {
		for _, p := range targets {
			dir, err := stagePlatform(stage, g, p, rel, filepath.Join(out, "build", p.Node, g.exe(p)))
			if err != nil {
				return err
			}
			dirs = append(dirs, dir)
		}
	}
	launcher, err := stageCopy(stage, "npm/askuser", rel, askuser)
	if err != nil {
		return err
	}
	if err := stageFile(launcher, opencodePluginFile, opencodePluginSource); err != nil {
		return err
	}
	hubLauncher, err := stageCopy(stage, "npm/askuser-hub", rel, askuserHub)
	if err != nil {
		return err
	}
	pi, err := stageCopy(stage, "pi", rel, askuser)
	if err != nil {
		return err
	}
	if err := stageFile(pi, dialogModuleFile, module); err != nil {
		return err
	}
	dirs = append(dirs, launcher, hubLauncher, pi)
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	for _, dir := range dirs {
		cmd := exec.Command("npm", "pack", "--silent", "--pack-destination", abs)
		cmd.Dir = dir
		cmd.Stderr = os.Stderr
		name, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("npm pack in %s: %w", dir, err)
		}
		fi, err := os.Stat(filepath.Join(abs, strings.TrimSpace(string(name))))
		if err != nil {
			return fmt.Errorf("npm pack in %s wrote %q: %w", dir, name, err)
		}
		fmt.Printf("%-40s %9d bytes packed\n", strings.TrimSpace(string(name)), fi.Size())
	}
	return nil
}

// stagePlatform writes the package that holds only g's binary for p.
func stagePlatform(stage string, g program, p platform, rel release, bin string) (string, error) {
	dir := filepath.Join(stage, g.Name+"-"+p.Node)
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		return "", err
	}
	b, err := os.ReadFile(bin)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "bin", g.exe(p)), b, 0o755); err != nil {
		return "", err
	}
	readme := fmt.Sprintf("# %s\n\nThe %s %s binary for %s. Install %s instead: it depends on this package and runs the binary.\n",
		g.platformPackage(p), g.Name, rel.Version, p.Node, g.Installers)
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte(readme), 0o644); err != nil {
		return "", err
	}
	pkg := object{
		{"name", g.platformPackage(p)},
		{"version", rel.Version},
		{"description", fmt.Sprintf("The %s binary for %s", g.Name, p.Node)},
		{"license", "MIT"},
		{"repository", object{{"type", "git"}, {"url", "git+https://github.com/askuser/askuser.git"}}},
		{"os", []string{p.os()}},
		{"cpu", []string{p.cpu()}},
		{"files", []string{"bin/" + g.exe(p), "README.md"}},
		{"preferUnplugged", true},
	}
	return dir, writeJSON(filepath.Join(dir, "package.json"), pkg)
}

// stageCopy copies the package at src (its package.json and the files it
// lists) and adds g's platform packages as optional dependencies at this
// exact release. A package's bin/ directory from a checkout build is
// never shipped: the binary comes from the platform package. A package
// whose bin names g's command, a launcher, gets launcherSource there.
func stageCopy(stage, src string, rel release, g program) (string, error) {
	b, err := os.ReadFile(filepath.Join(src, "package.json"))
	if err != nil {
		return "", err
	}
	var pkg object
	if err := json.Unmarshal(b, &pkg); err != nil {
		return "", fmt.Errorf("%s/package.json: %w", src, err)
	}
	var name string
	if err := json.Unmarshal(pkg.get("name"), &name); err != nil {
		return "", fmt.Errorf("%s/package.json: name: %w", src, err)
	}
	var version string
	if err := json.Unmarshal(pkg.get("version"), &version); err != nil || version != rel.Version {
		return "", fmt.Errorf("%s/package.json: version is %s, internal/program/VERSION says %s", src, pkg.get("version"), rel.Version)
	}
	var files []string
	if err := json.Unmarshal(pkg.get("files"), &files); err != nil {
		return "", fmt.Errorf("%s/package.json: files: %w", src, err)
	}
	var bin map[string]string
	if raw := pkg.get("bin"); raw != nil {
		if err := json.Unmarshal(raw, &bin); err != nil {
			return "", fmt.Errorf("%s/package.json: bin: %w", src, err)
		}
	}
	launcher := bin[g.Name]
	if launcher != "" && launcher != "bin/"+g.Name+".js" {
		return "", fmt.Errorf("%s/package.json: bin: %s is %q, want %q, where the launcher goes", src, g.Name, launcher, "bin/"+g.Name+".js")
	}
	if launcher != "" && !slices.Contains(files, launcher) {
		return "", fmt.Errorf("%s/package.json: files does not list %s, the launcher", src, launcher)
	}
	files = slices.DeleteFunc(files, func(f string) bool { return f == "bin/" })
	optional := object{}
	for _, p := range platforms {
		optional = append(optional, field{g.platformPackage(p), rel.Version})
	}
	pkg = pkg.without("files", "scripts", "devDependencies", "optionalDependencies")
	pkg = append(pkg, field{"files", files}, field{"optionalDependencies", optional})
	dir := filepath.Join(stage, strings.TrimPrefix(name, scope+"/"))
	for _, f := range files {
		from := filepath.Join(src, f)
		if f == launcher {
			from = launcherSource
		}
		if err := copyTree(from, filepath.Join(dir, f)); err != nil {
			return "", err
		}
	}
	return dir, writeJSON(filepath.Join(dir, "package.json"), pkg)
}

// stageFile copies src into the staged package at dir as name, and adds
// name to the files its package.json lists.
func stageFile(dir, name, src string) error {
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return err
	}
	var pkg object
	if err := json.Unmarshal(b, &pkg); err != nil {
		return fmt.Errorf("%s/package.json: %w", dir, err)
	}
	var files []string
	if err := json.Unmarshal(pkg.get("files"), &files); err != nil {
		return fmt.Errorf("%s/package.json: files: %w", dir, err)
	}
	if err := copyTree(src, filepath.Join(dir, name)); err != nil {
		return err
	}
	if !slices.Contains(files, name) {
		files = append(files, name)
	}
	pkg = append(pkg.without("files"), field{"files", files})
	return writeJSON(filepath.Join(dir, "package.json"), pkg)
}

func copyTree(src, dst string) error {
	return filepath.Walk(src, func(path string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		to := filepath.Join(dst, rel)
		if fi.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		return os.WriteFile(to, b, fi.Mode().Perm())
	})
}

// An object is a JSON object that keeps its keys in order, as a
// package.json is best read.
type object []field

type field struct {
	Key   string
	Value any
}

func (o object) get(key string) json.RawMessage {
	for _, f := range o {
		if f.Key == key {
			if raw, ok := f.Value.(json.RawMessage); ok {
				return raw
			}
			b, _ := json.Marshal(f.Value)
			return b
		}
	}
	return nil
}

func (o object) without(keys ...string) object {
	var out object
	for _, f := range o {
		if !slices.Contains(keys, f.Key) {
			out = append(out, f)
		}
	}
	return out
}

func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := marshal(f.Key)
		v, err := marshal(f.Value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func (o *object) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("not a JSON object")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		*o = append(*o, field{t.(string), raw})
	}
	return nil
}

// marshal is json.Marshal without the HTML escaping that would write
// ">=" in a package.json as "\u003e=".
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
