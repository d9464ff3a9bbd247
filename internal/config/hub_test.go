package config

import (
	"errors"
	"testing"

	"github.com/askuser/askuser/prefs"
	"github.com/google/go-cmp/cmp"
)

// pub is a public key as askuser hub recipient prints it.
const pub = "askuser-pub-PwAxMkIhRrYfpdxky-KNzmaHmdSh_1NOEgqW7iO2WJx9_KcMfvVsQ7ytnYjPgKEXdAXPIesKYqt2eFVSrZSr1kCgZcjCvcEnp5o_PRWl0RYJLVUF3oJ16go1wyBoLTHOvHGLpVI3b0RTnrOUoMtIsONJuvW8f-HKR5eWnUVB-Pi-YIgRUsVY0gKw8-uEbFmiVfufBtdcN0HIDTp80ozL_xRxw8x2oGsVlYBGBMFjBtI3utQwOzAPnjqd3QnPNIaPI1s02xSA42ipYUaEy3ad7eFV3oiS8kkVztYkxJxH3kZxMwkfORhEp5OCzWOFI9wSOkRuoZiE0WpH1We51XeSFgXEemGmUwyqqLbG08o2rKOmGatCG-w0hZuE5gq4BcDOSCUamXMwdhAaumBaGBCc7fs3h4ga_glbRAGx4ndK1Nc4l8x_q9ltoerEw4dZnaW8sFFe3qhfKZU4wTRoezt_cEZ8NAe0KyVW3FWU15JkSemsPctVmTCrJLQn6Eu-NCNHK3w6tlRV_ChHZmhM1VFu-SumwzFZwPmofQCiKIdxB9GyOXy1ClQA3hUnI3NzM8e25uCEzLA00IWWRiQ6rLA9RJWu_jETTXiip-c-jKiIpYY8odQF52obNlAGIIWs7ZZCkjlAkCc6fzOAZrOYCJOsnJBZxjh345dpDkqgSTAcimKhYot0XuKNx5ml4oYruSMeWHNL4jdo0SxzotSXa7ZGFRB-yktkWpORS5MKefK3DRNCsCycoMO5ZLtWVktNqCoohXCiSsshd0B9veBzxhJZIfnOl0pzuni2JdSIYbaS3vrMaUtG1-W1U0GGnoQPN4wQMdjCPXZ9nNc7fHwV8AA_lrVyd8vJmBt6jkm6gMmrTqEgAQCFVMx27fc2wzdgxGhvMKMe4pZJPBqykgKK94YfB7tDWJyqAcm0SbyXfXdnJPQ2V8hjInGTU2qtguUQBKmQGJKmCEZKLeNUcpMeGcIPVVuAkfQnWUJZzxBYpIUnmaCJ3gBtU9a5XTODYvOeGHBSzoZqcZpsuNsW5QQCmviBZNJoEZpClmEcn_lkd6lPQbkBoPNfuqJKTZKNEFBHSkKAACbKN-Ma85ZJzAmFH5vJu1m3W0SWAbWLIZQJdgHF2hQ3sGt3tHME6bBeb-HHFDcwoceW1YCAUoqfpfZhdylVHiQrxorMPXoX_nu7oqxX68gf-EMs4NIdLfFmsPWcpiYQT6Fm3qwMdoNITBCRLLe7MCQocgpAe-ZRwmmVJZXG2kdUkVkaLsUDGLhDXWIsE3CcD7MrCbp2IGCRl0y55uFhH6VebOkpHPGCk3jJEJC1aNRyGSVK7uu7RPJsf3WYASVSpHdMGUEc2Qus0lghGFQrACR7t5Gf4qTExbUWF-CBzxaDQ2ACcwY2l4euaYhuLJCM_CgKjTm45_UdylkEtDtIdHnKowfFwFKnmHtIgZYVUJyR6YXEK7Ut1woHa7y_gYOHufiUhooHOhZTItin_JOsBegFncrKKwQ3qTEbZDkARmRsSus2pdM87ElR8TdfweOOI3sZQB93YKNZveBhfJw4ck2ccrhsDvDSKpzxQn2xoQe0Dgo7sZEcLGA7K9VMTh9TtIz7RdKkEdvOmDON8pXDcEVIUBmYc4Zvuar4r1aw0GH-TdQ-b5dKL-W87GBpv50M"

// TestParseHubRemote reads the hub object: a good one whole, and each
// mistake with its member, its position and what to write instead.
func TestParseHubRemote(t *testing.T) {
	good := &prefs.Remote{URL: "tls://a:4222,nats://b:4222", Credentials: "/c/agent.creds", Recipients: []string{pub}}
	tests := []struct {
		name string
		in   string
		want any // Prefs, or []P
	}{
		{"good", `{"hub": {"url": "tls://a:4222,nats://b:4222", "credentials": "/c/agent.creds", "recipients": ["` + pub + `"]}}`,
			prefs.Prefs{Hub: prefs.HubAuto, HubRemote: good}},
		{"idle", `{"hub": {"url": "nats://a:1", "credentials": "/c", "recipients": ["` + pub + `"], "idleMs": 5000}}`,
			prefs.Prefs{Hub: prefs.HubAuto, HubRemote: &prefs.Remote{URL: "nats://a:1", Credentials: "/c", Recipients: []string{pub}, IdleMs: 5000}}},
		{"empty object", `{"hub": {}}`, []P{
			{"hub.url", `is required: the NATS server's address, such as "tls://nats.example.net:4222" (line 1, column 9)`},
			{"hub.credentials", "is required: the path of a NATS .creds file, or of a file holding a token or user:password (line 1, column 9)"},
			{"hub.recipients", "must list at least one public key to seal questions to: askuser hub recipient prints a machine's (line 1, column 9)"}}},
		{"url scheme and user", `{"hub": {"url": "http://u:p@x:1", "credentials": "/c", "recipients": ["` + pub + `"]}}`, []P{
			{"hub.url", `must be nats://HOST:PORT or tls://HOST:PORT, without a user or password (those go in credentials), got "http://u:p@x:1" (line 1, column 10)`}}},
		{"url number", `{"hub": {"url": 4222, "credentials": "/c", "recipients": ["` + pub + `"]}}`, []P{
			{"hub.url", "must be a string, got a number (line 1, column 10)"}}},
		{"credentials relative", `{"hub": {"url": "nats://a:1", "credentials": "agent.creds", "recipients": ["` + pub + `"]}}`, []P{
			{"hub.credentials", `must be an absolute path, got "agent.creds" (line 1, column 31)`}}},
		{"credentials null", `{"hub": {"url": "nats://a:1", "credentials": null, "recipients": ["` + pub + `"]}}`, []P{
			{"hub.credentials", "must be a string, got null (line 1, column 31)"}}},
		{"recipients string", `{"hub": {"url": "nats://a:1", "credentials": "/c", "recipients": "` + pub + `"}}`, []P{
			{"hub.recipients", `must be an array of public keys such as ["askuser-pub-…"], got the string "askuser-pub-PwAxMkIhRrYfpdxky-KNzmaHmdSh"… (line 1, column 52)`}}},
		{"recipients empty", `{"hub": {"url": "nats://a:1", "credentials": "/c", "recipients": []}}`, []P{
			{"hub.recipients", "must list at least one public key to seal questions to: askuser hub recipient prints a machine's (line 1, column 52)"}}},
		{"recipient not a key", `{"hub": {"url": "nats://a:1", "credentials": "/c", "recipients": ["` + pub + `", "XABC"]}}`, []P{
			{"hub.recipients[1]", `a public key starts with askuser-pub-; got "XABC" (line 1, column 52)`}}},
		{"recipient short", `{"hub": {"url": "nats://a:1", "credentials": "/c", "recipients": ["askuser-pub-AAAA"]}}`, []P{
			{"hub.recipients[0]", `a public key is askuser-pub- and 1664 characters of base64url; got "askuser-pub-AAAA" (line 1, column 52)`}}},
		{"recipient number", `{"hub": {"url": "nats://a:1", "credentials": "/c", "recipients": [1]}}`, []P{
			{"hub.recipients[0]", "must be a string, got a number (line 1, column 52)"}}},
		{"idle zero", `{"hub": {"url": "nats://a:1", "credentials": "/c", "recipients": ["` + pub + `"], "idleMs": 0}}`, []P{
			{"hub.idleMs", "must be a whole number of milliseconds from 1 to 604800000 (a week); leave it out for ten minutes; got 0 (line 1, column 1748)"}}},
		{"idle negative", `{"hub": {"url": "nats://a:1", "credentials": "/c", "recipients": ["` + pub + `"], "idleMs": -5}}`, []P{
			{"hub.idleMs", "must be a whole number of milliseconds from 1 to 604800000 (a week); leave it out for ten minutes; got -5 (line 1, column 1748)"}}},
		{"idle too long", `{"hub": {"url": "nats://a:1", "credentials": "/c", "recipients": ["` + pub + `"], "idleMs": 1e12}}`, []P{
			{"hub.idleMs", "must be a whole number of milliseconds from 1 to 604800000 (a week); leave it out for ten minutes; got 1e12 (line 1, column 1748)"}}},
		{"idle string", `{"hub": {"url": "nats://a:1", "credentials": "/c", "recipients": ["` + pub + `"], "idleMs": "5m"}}`, []P{
			{"hub.idleMs", `must be a whole number of milliseconds from 1 to 604800000 (a week); leave it out for ten minutes; got the string "5m" (line 1, column 1748)`}}},
		{"unknown member", `{"hub": {"url": "nats://a:1", "token": "t"}}`, []P{
			{"hub.token", "unknown key; the keys of hub are url, credentials, recipients, idleMs (line 1, column 31)"}}},
		{"member case", `{"hub": {"URL": "nats://a:1"}}`, []P{
			{"hub.URL", `unknown key; keys are case-sensitive: write "url" (line 1, column 10)`}}},
		{"duplicate member", `{"hub": {"url": "nats://a:1", "url": "nats://b:1"}}`, []P{
			{"hub.url", "duplicate key (line 1, column 31)"}}},
		{"surrogate", `{"hub": {"url": "nats://a:1", "credentials": "/c\ud800", "recipients": ["` + pub + `"]}}`, []P{
			{"hub.credentials", "holds an unpaired surrogate escape, which is not text; write the character itself (line 1, column 31)"}}},
		{"hub array", `{"hub": ["nats://a:1"]}`, []P{
			{"hub", `must be "auto", "off" or an object naming a remote hub, {"url": …, "credentials": …, "recipients": […]}, got an array (line 1, column 9)`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse("cfg.json", []byte(tt.in))
			switch want := tt.want.(type) {
			case prefs.Prefs:
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("prefs (-want +got):\n%s", diff)
				}
				if err := CheckPrefs("cfg", got); err != nil {
					t.Fatalf("CheckPrefs: %v", err)
				}
			case []P:
				e, ok := errors.AsType[*Error](err)
				if !ok {
					t.Fatalf("err = %v, want *Error", err)
				}
				if diff := cmp.Diff(problems(want), e.Problems); diff != "" {
					t.Fatalf("problems (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestCheckPrefsHubRemote checks a remote built in Go by the file's
// rules, and that a file's hub string drops another source's remote.
func TestCheckPrefsHubRemote(t *testing.T) {
	r := &prefs.Remote{URL: "nats://a:1", Credentials: "c", Recipients: []string{pub}, IdleMs: -1}
	err := CheckPrefs("flags", prefs.Prefs{Hub: prefs.HubOff, HubRemote: r})
	want := `flags: invalid config: hub: names a remote hub, so it must be "auto", got "off"; hub.credentials: must be an absolute path, got "c"; hub.idleMs: must be a whole number of milliseconds from 1 to 604800000 (a week), got -1`
	if err == nil || err.Error() != want {
		t.Fatalf("CheckPrefs = %v\nwant %s", err, want)
	}
	file := prefs.Prefs{Hub: prefs.HubAuto, HubRemote: &prefs.Remote{}}
	if e := Resolve(prefs.Prefs{Hub: prefs.HubOff}, file); e.Hub != prefs.HubOff || e.HubRemote != nil {
		t.Errorf("off over a remote resolves to %q, %v", e.Hub, e.HubRemote)
	}
	if e := Resolve(prefs.Prefs{}, file); e.Hub != prefs.HubAuto || e.HubRemote != file.HubRemote {
		t.Errorf("the file's remote resolves to %q, %v", e.Hub, e.HubRemote)
	}
}
