# The embedded guard's deny rules (config/src/default.toml; not the
# persistence rules, which ask), written in Rego for
# hookgate's `rego` subscriber (docs/policies.md). Shell rules read
# `input.tool.commands`: each simple command of the line as the guard's own
# parser reads it (wrappers such as `sudo`, `env` and `sh -c` removed, the
# directory dropped from `/bin/rm`, `-rf` split into `-r` and `-f`, `~`
# and the line's own variables expanded). What it does not do that the
# guard does: judge a word the line leaves unknown as the worst it could be
# (a line whose `tool.commands_resolved` is false is judged on what is
# known), follow `cd` into relative operands and globs, see redirections
# (`cat < .env`, `> /dev/sda`), or know which words are option values.
# Its measured cost next to the guard, and how often the two disagree on
# the held-out guard corpus, are in BENCHMARKS.md ("Policy cost").
package hookgate

import rego.v1

# --- What the rules read -------------------------------------------------

# The line's simple commands (none for a tool that is not a shell).
commands contains c if {
	some c in input.tool.commands
}

# A command's subcommand: its first operand (`git push`, `nvme format`).
subcommand(c) := c.operands[0]

# Its operands after the subcommand.
rest(c) := array.slice(c.operands, 1, count(c.operands))

# Every path the call names: a file tool's paths, a shell command's operands.
paths contains p if {
	some p in input.tool.paths
}

paths contains p if {
	some c in commands
	not c.name in {"echo", "printf"}
	some p in c.operands
}

# `/`, a home directory or a top-level system directory (the guard's `~` is
# the expanded home here).
system_dir := `^(/|/home/[^/]+|/Users/[^/]+|/root|/(bin|boot|dev|etc|home|lib|lib32|lib64|opt|proc|root|sbin|srv|sys|usr|var|Users|System|Applications|Library))/?$`

# --- Deletes and permission changes --------------------------------------

deny contains "recursive delete of /, the home directory or a system directory" if {
	some c in commands
	c.name == "rm"
	some f in c.flags
	f in {"-r", "-R", "--recursive"}
	some op in c.operands
	regex.match(system_dir, op)
}

deny contains "recursive delete of /, the home directory or a system directory" if {
	some c in commands
	c.name == "find"
	"-delete" in c.args
	regex.match(system_dir, c.operands[0])
}

deny contains "recursive permission change of /, the home directory or a system directory" if {
	some c in commands
	c.name in {"chmod", "chown", "chgrp"}
	some f in c.flags
	f in {"-R", "--recursive"}
	some op in c.operands
	regex.match(system_dir, op)
}

# --- Disks ----------------------------------------------------------------

deny contains "formatting or wiping a filesystem, disk or volume" if {
	some c in commands
	regex.match(`^(mkfs(\..*)?|mke2fs|mkswap|mkdosfs|mkntfs|mkexfatfs|mkudffs|newfs(_.*)?|wipefs|blkdiscard|lvremove|vgremove|pvremove)$`, c.name)
}

# Commands that erase or repartition a disk: (command, subcommands or flags).
erase_flags := {
	"hdparm": {"--security-erase", "--security-erase-enhanced", "--trim-sector-ranges", "--make-bad-sector", "--dco-restore"},
	"badblocks": {"-w"},
	"sgdisk": {"-Z", "--zap-all", "-z", "--zap", "-o", "--clear", "-d", "--delete", "-n", "--new", "-g", "--mbrtogpt", "-R", "--replicate"},
}

erase_subcommands := {
	"nvme": {"format", "sanitize"},
	"diskutil": {"eraseDisk", "eraseVolume", "zeroDisk", "randomDisk", "secureErase", "partitionDisk", "reformat", "eraseCD", "resizeVolume", "splitPartition", "mergePartitions"},
	"cryptsetup": {"luksFormat", "erase", "luksErase", "reencrypt", "luksKillSlot"},
}

deny contains "erasing or repartitioning a disk" if {
	some c in commands
	some f in c.flags
	f in erase_flags[c.name]
}

deny contains "erasing or repartitioning a disk" if {
	some c in commands
	subcommand(c) in erase_subcommands[c.name]
}

deny contains "repartitioning a disk" if {
	some c in commands
	c.name in {"fdisk", "sfdisk", "cfdisk", "gdisk", "cgdisk"}
	listing := {"-l", "--list", "-d", "--dump", "-J", "--json", "-s", "--show-size", "-V", "--verify", "-L", "--list-types"}
	count({f | some f in c.flags; f in listing}) == 0
	some op in c.operands
	startswith(op, "/dev/")
}

deny contains "repartitioning a disk" if {
	some c in commands
	c.name == "parted"
	some op in c.operands
	regex.match(`^(mklabel|mktable|mkpart|mkpartfs|rm|resizepart|resize|rescue|name|set|toggle)$`, op)
}

deny contains "creating or destroying a storage pool (its disks' data)" if {
	some c in commands
	c.name == "zpool"
	subcommand(c) in {"create", "destroy", "labelclear"}
}

deny contains "destroying a dataset" if {
	some c in commands
	c.name == "zfs"
	subcommand(c) == "destroy"
}

raw_disk := `^/dev/((sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|md|dm-|nbd|zd|loop)[a-z0-9]*|(mapper|disk|md|zvol)/.+)$`

deny contains "writing a raw disk device" if {
	some c in commands
	c.name == "dd"
	some op in c.operands
	startswith(op, "of=")
	regex.match(raw_disk, trim_prefix(op, "of="))
}

deny contains "writing a raw disk device" if {
	input.tool.class == "file_write"
	some p in input.tool.paths
	regex.match(raw_disk, p)
}

# --- git -------------------------------------------------------------------

pushes(c) if {
	c.name == "git"
	some sub in c.operands
	sub in {"push", "send-pack"}
}

deny contains "force push (rewrites the remote's history)" if {
	some c in commands
	pushes(c)
	some f in c.flags
	f in {"-f", "--force", "--mirror"}
}

deny contains "force push of a +refspec (rewrites the remote's history)" if {
	some c in commands
	pushes(c)
	some op in c.operands
	startswith(op, "+")
}

# --- Secrets and credentials ----------------------------------------------

secret_env := `(?i)(^|[/\\])(\.env(rc)?([._*-][^/\\]*)?|[^/\\]+\.env|\.flaskenv|\.dev\.vars)$`

not_secret_env := `(?i)(^|[/\\])(\.env(rc)?[._-](example|sample|template|dist|defaults|schema|md|txt)|(process|import\.meta|os|self|this|window|globalThis|context)\.env)$`

deny contains "writing a secrets file (.env)" if {
	input.tool.class == "file_write"
	some p in paths
	regex.match(secret_env, p)
	not regex.match(not_secret_env, p)
}

deny contains "reading a secrets file (.env)" if {
	input.tool.class != "file_write"
	some p in paths
	regex.match(secret_env, p)
	not regex.match(not_secret_env, p)
}

credentials := `(?i)(^|[/\\])(id_(rsa|dsa|ecdsa|ed25519)(_sk)?|ssh_host_[a-z0-9]+_key|\.aws[/\\](credentials|sso[/\\]cache[/\\].*)|[._]netrc|\.git-credentials|\.pgpass|\.docker[/\\]config\.json|\.kube[/\\]config|\.config[/\\]gcloud[/\\]([^/\\]*credentials[^/\\]*|access_tokens\.db|legacy_credentials[/\\].*)|\.azure[/\\](msal_token_cache[^/\\]*|accessTokens\.json|msal_http_cache.*)|\.npmrc|\.pypirc|\.config[/\\](gh|hub)[/\\]hosts\.yml|\.config[/\\]hub|\.terraform\.d[/\\]credentials\.tfrc\.json|\.vault-token|\.cargo[/\\]credentials(\.toml)?|\.claude[/\\]\.credentials\.json|\.gem[/\\]credentials|\.composer[/\\]auth\.json|\.m2[/\\]settings-security\.xml|\.gnupg[/\\](private-keys-v1\.d[/\\].*|secring\.gpg)|\.password-store[/\\].*|Library[/\\]Keychains[/\\].*)$`

deny contains "reading a credentials file (private key or stored credentials)" if {
	input.tool.class != "file_write"
	some p in paths
	regex.match(credentials, p)
}

deny contains "reading a credentials file (private key or stored credentials)" if {
	input.tool.class != "file_write"
	some p in paths
	regex.match(`(?i)(^|[/\\])\.ssh[/\\][^/\\]+$`, p)
	not regex.match(`(?i)(\.pub|[/\\](known_hosts(\.old)?|authorized_keys2?|config|environment|rc))$`, p)
}

deny contains "reading a credentials file (password hashes or another process's environment)" if {
	input.tool.class != "file_write"
	some p in paths
	regex.match(`^(/etc/(shadow|gshadow|master\.passwd|security/opasswd)(-|\.bak)?|/proc/[^/]+/environ|/private/etc/master\.passwd)$`, p)
}

ask contains "reading what may be a private key" if {
	input.tool.class != "file_write"
	some p in paths
	regex.match(`(?i)\.(pem|key|p12|pfx)$`, p)
	not regex.match(`(?i)(^|[/\\._-])(ca|cert|certs|certificate|chain|fullchain|bundle|pub|public)([._-][^/\\]*)?\.pem$`, p)
}

# Commands that print a stored credential: (command, subcommand, then a
# flag among `flags` or an operand after the subcommand matching `operand`).
credential_printers := [
	{"names": {"gh"}, "sub": {"auth"}, "operand": `^token$`},
	{"names": {"gh"}, "sub": {"auth"}, "flags": {"--show-token", "-t"}},
	{"names": {"aws"}, "sub": {"configure"}, "operand": `(?i)^(export-credentials|.*(secret|session_token).*)$`},
	{"names": {"kubectl", "oc"}, "sub": {"config"}, "flags": {"--raw"}},
	{"names": {"security"}, "sub": {"find-generic-password", "find-internet-password", "dump-keychain"}, "flags": {"-w", "-g", "-d"}},
	{"names": {"secret-tool"}, "sub": {"lookup", "search"}},
	{"names": {"git"}, "sub": {"credential", "credential-store", "credential-cache"}, "operand": `^(fill|get)$`},
	{"names": {"gcloud"}, "sub": {"auth"}, "operand": `^print-(access|identity|refresh)-token$`},
	{"names": {"az"}, "sub": {"account"}, "operand": `^get-access-token$`},
]

prints_credential(c, p) if {
	c.name in p.names
	subcommand(c) in p.sub
	not p.flags
	not p.operand
}

prints_credential(c, p) if {
	c.name in p.names
	subcommand(c) in p.sub
	some f in c.flags
	f in p.flags
}

prints_credential(c, p) if {
	c.name in p.names
	subcommand(c) in p.sub
	some op in rest(c)
	regex.match(p.operand, op)
}

deny contains "printing a stored credential" if {
	some c in commands
	some p in credential_printers
	prints_credential(c, p)
}

deny contains "printing a stored credential" if {
	some c in commands
	c.name in {"gpg", "gpg2"}
	some f in c.flags
	f in {"--export-secret-keys", "--export-secret-subkeys"}
}

deny contains "printing a stored credential" if {
	some c in commands
	startswith(c.name, "docker-credential-")
	subcommand(c) in {"get", "list"}
}

# --- A download run as a program ------------------------------------------

fetchers := `(curl|wget2?|fetch|aria2c|https?|xh|curlie|lynx|links|elinks|w3m)`

runners := `(sh|bash|zsh|dash|ksh|mksh|ash|fish|yash|python[0-9.]*|pypy[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node|nodejs|deno|bun|php[0-9.]*|lua[0-9.]*|pwsh|powershell|source|\.|eval)`

# `curl … | sh`, `| sudo -E bash`, `bash <(curl …)`, `sh -c "$(curl …)"`.
download_run := sprintf(`(^|[\s;&|(/])%s\s[^|]*\|\s*(sudo(\s+-\S+)*\s+)?(\S*/)?%s(\s|$)|(^|[\s;&|(/])%s\s+(-\S+\s+)*<\(\s*%s\s|(^|[\s;&|(/])%s\s+(-\S+\s+)*-c\s*["']?\$\(\s*%s\s`, [fetchers, runners, runners, fetchers, runners, fetchers])

deny contains "running a download as a program" if {
	input.tool.class == "shell"
	regex.match(download_run, input.tool.command)
}

# --- The answer -------------------------------------------------------------

# A deny naming every rule that matched; else an ask (a deny where the
# agent cannot ask); else no opinion.
decision := {
	"permission": "deny",
	"reason": concat("; ", sort([r | some r in deny])),
	"agent_message": "Do not retry this; choose a safer alternative or ask the user.",
} if {
	count(deny) > 0
}

decision := {"permission": "ask", "reason": concat("; ", sort([r | some r in ask]))} if {
	count(deny) == 0
	count(ask) > 0
	input.can.ask
}

decision := {"permission": "deny", "reason": concat("; ", sort([r | some r in ask]))} if {
	count(deny) == 0
	count(ask) > 0
	not input.can.ask
}
