# The embedded guard's rules, written in Rego for hookgate's `rego`
# subscriber (docs/policies.md). Without the guard's shell parser, shell
# rules match the command line as text: a rule sees `input.tool.command`
# split at `;`, `&&`, `||`, `|` and newlines into simple commands.
package hookgate

import rego.v1

system_dirs := `(/|~|/(bin|boot|dev|etc|home|lib|lib32|lib64|opt|proc|root|sbin|srv|sys|usr|var|Users|System|Applications|Library))`

# The simple commands of a shell line, each a list of words.
commands contains words if {
	input.tool.class == "shell"
	some part in regex.split(`\s*(;|&&|\|\||\||\n)\s*`, input.tool.command)
	words := [w | some w in split(trim_space(part), " "); w != ""]
	count(words) > 0
}

# What each rule says, when it matches: the first deny wins.
deny contains "recursive delete of /, the home directory or a system directory" if {
	some words in commands
	words[0] == "rm"
	some flag in words
	regex.match(`^(-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)$`, flag)
	some operand in words
	regex.match(sprintf("^%s/?$", [system_dirs]), operand)
}

deny contains "recursive permission change of /, the home directory or a system directory" if {
	some words in commands
	words[0] in {"chmod", "chown", "chgrp"}
	some flag in words
	flag in {"-R", "--recursive"}
	some operand in words
	regex.match(sprintf("^%s/?$", [system_dirs]), operand)
}

deny contains "formatting a filesystem" if {
	some words in commands
	regex.match(`^(mkfs(\..*)?|mke2fs|wipefs)$`, words[0])
}

deny contains "force push (rewrites the remote's history)" if {
	some words in commands
	words[0] == "git"
	words[1] == "push"
	some flag in words
	flag in {"-f", "--force", "--mirror"}
}

deny contains "force push of a +refspec (rewrites the remote's history)" if {
	some words in commands
	words[0] == "git"
	words[1] == "push"
	some operand in array.slice(words, 2, count(words))
	startswith(operand, "+")
}

deny contains "running a download as a program" if {
	input.tool.class == "shell"
	regex.match(`(curl|wget|fetch|aria2c|xh)\b[^|]*\|\s*(sudo\s+)?(sh|bash|zsh|dash|ksh|fish|python[0-9.]*|perl|ruby|node|php|pwsh)\b`, input.tool.command)
}

secret_env := `(^|/)(\.env(rc)?([.*-][^/]*)?|[^/]+\.env)$`

not_secret_env := `(^|/)(\.env(rc)?[.-](example|sample|template|dist|defaults|md|txt)|(process|import\.meta|os|self|this|window|globalThis|context)\.env)$`

deny contains "reading or writing a secrets file (.env)" if {
	some path in input.tool.paths
	regex.match(secret_env, path)
	not regex.match(not_secret_env, path)
}

deny contains "reading a credentials file (private key or stored credentials)" if {
	some path in input.tool.paths
	regex.match(`(^|/)(id_(rsa|dsa|ecdsa|ed25519)(_sk)?|\.aws/credentials|\.netrc|\.git-credentials|\.pgpass|\.docker/config\.json|\.kube/config)$`, path)
}

deny contains "no terraform destroy" if {
	some words in commands
	words[0] == "terraform"
	"destroy" in words
}

# The answer: a deny naming every rule that matched, else no opinion.
decision := {
	"permission": "deny",
	"reason": concat("; ", sort([r | some r in deny])),
	"agent_message": "Do not retry this; choose a safer alternative or ask the user.",
} if {
	input.can.deny
	count(deny) > 0
}
