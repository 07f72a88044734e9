//! Provider token shapes: a fixed prefix and a body of known alphabet and
//! length, masked whole wherever they stand (an argument, a URL, a file,
//! a JSON key). Drawn from what public secret scanners (gitleaks,
//! trufflehog) match; a shape that needs its name beside it to be told
//! from ordinary text is left to `names`, not guessed here.

use regex::Captures;

use super::super::entropy;
use super::super::rule::{Rule, always, checked};

const M: &str = "[REDACTED]";

/// Vault's legacy `s.`/`b.` tokens are short enough to be words: only a
/// random-looking body counts.
fn random_body(caps: &Captures<'_>) -> bool {
    caps.get(1)
        .is_some_and(|body| entropy::looks_random(body.as_str()))
}

pub(super) const RULES: &[Rule] = &[
    // AI providers: OpenAI (sk-, sk-proj-, sk-svcacct-), Anthropic
    // (sk-ant-), OpenRouter, DeepSeek; Groq, xAI, Replicate, Perplexity,
    // Hugging Face, LangSmith, Tavily, Pinecone, ElevenLabs.
    always(r"\bsk-[A-Za-z0-9_\-]{16,}", M),
    always(r"\bgsk_[A-Za-z0-9]{40,}", M),
    always(r"\bxai-[A-Za-z0-9]{40,}", M),
    always(r"\br8_[A-Za-z0-9]{30,}", M),
    always(r"\bpplx-[A-Za-z0-9]{40,}", M),
    always(r"\b(?:hf_|api_org_)[A-Za-z0-9]{30,}", M),
    always(r"\blsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}\b", M),
    always(r"\btvly-[A-Za-z0-9\-]{20,}", M),
    always(r"\bpcsk_[A-Za-z0-9_]{40,}", M),
    always(r"\bsk_[a-f0-9]{48}\b", M),
    // Source hosting: GitHub, GitLab (every token kind, runner
    // registration), Bitbucket and Atlassian, Sourcegraph.
    always(
        r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})",
        M,
    ),
    always(
        r"\bgl(?:pat|dt|rt|ptt|cbt|oas|imt|ft|soat|agent|ffct|wt|cd|rrt)-[A-Za-z0-9_\-]{20,}",
        M,
    ),
    always(r"\bGR1348941[A-Za-z0-9_\-]{20,}", M),
    always(r"\bAT(?:ATT|CTT|BB)[A-Za-z0-9_\-=]{24,}", M),
    always(r"\bsgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}\b", M),
    // Payments: Stripe (secret, restricted, webhook), Square, Shopify,
    // Shippo, EasyPost, Flutterwave.
    always(
        r"\b(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,}|\bwhsec_[A-Za-z0-9+/=]{20,}",
        M,
    ),
    always(
        r"\b(?:sq0atp|sq0csp)-[A-Za-z0-9_\-]{22,}|\bEAAA[A-Za-z0-9_\-]{60,}",
        M,
    ),
    always(r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b", M),
    always(r"\bshippo_(?:live|test)_[a-fA-F0-9]{40}\b", M),
    always(r"\bEZ[AT]K[A-Za-z0-9]{54}\b", M),
    always(r"\bFLWSECK(?:_TEST)?-[a-hA-H0-9]{12,32}(?:-X)?", M),
    // Package registries: npm, PyPI, RubyGems, NuGet, Clojars, Docker Hub.
    always(r"\bnpm_[A-Za-z0-9]{30,}", M),
    always(r"\bpypi-[A-Za-z0-9_\-]{40,}", M),
    always(r"\brubygems_[a-f0-9]{48}\b", M),
    always(r"\boy2[a-z0-9]{43}\b", M),
    always(r"\bCLOJARS_[a-z0-9]{60}\b", M),
    always(r"\bdckr_(?:pat|oat)_[A-Za-z0-9_\-]{20,}", M),
    // Clouds: AWS key ids, Google (API key, OAuth client secret, access
    // and refresh tokens), Azure AD client secrets, Alibaba, DigitalOcean,
    // Heroku, Fly.io, Render, Netlify, Supabase, Cloudflare origin CA,
    // OpenShift.
    always(r"\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[0-9A-Z]{16}\b", M),
    always(r"\bAIza[0-9A-Za-z_\-]{35}", M),
    always(r"\bGOCSPX-[A-Za-z0-9_\-]{20,}", M),
    always(r"\bya29\.[0-9A-Za-z_\-]{20,}", M),
    always(r"\b1//0[0-9A-Za-z_\-]{30,}", M),
    always(r"[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.\-]{31,34}", M),
    always(r"\bLTAI[A-Za-z0-9]{12,20}\b", M),
    always(r"\bdo[opr]_v1_[a-f0-9]{64}", M),
    always(r"\bHRKU-[A-Za-z0-9_\-]{20,}", M),
    always(
        r"\b(?:fo1_[A-Za-z0-9_\-]{40,}|fm[12][ar]?_[A-Za-z0-9+/=]{60,})",
        M,
    ),
    always(r"\brnd_[A-Za-z0-9]{28,}", M),
    always(r"\bnfp_[A-Za-z0-9]{36,}", M),
    always(r"\bsbp_[a-f0-9]{40}\b", M),
    always(r"\bv1\.0-[a-f0-9]{24}-[a-f0-9]{146}\b", M),
    always(r"\bsha256~[A-Za-z0-9_\-]{43}", M),
    // Secret managers and infrastructure: HashiCorp Vault, Terraform
    // Cloud, Doppler, Pulumi, 1Password, age.
    always(r"\bhv[sbr]\.[A-Za-z0-9_\-]{20,}", M),
    checked(r"\b[sb]\.([A-Za-z0-9]{24})\b", M, random_body),
    always(r"\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_\-=]{60,}", M),
    always(r"\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9_\-]{30,}", M),
    always(r"\bpul-[a-f0-9]{40}\b", M),
    always(r"\bops_eyJ[A-Za-z0-9+/=]{100,}", M),
    always(
        r"\bA3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\b",
        M,
    ),
    always(r"AGE-SECRET-KEY-1[0-9A-Z]{50,}", M),
    // Messaging and mail: Slack (bot, user, app, config, workflow),
    // Discord bot tokens, SendGrid, Mailgun, Brevo, Twilio API keys.
    always(r"\b(?:xox[abposre]|xapp|xwfp)-[A-Za-z0-9\-]{10,}", M),
    always(
        r"\b[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}\b",
        M,
    ),
    always(r"\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}", M),
    always(r"\bkey-[0-9a-f]{32}\b", M),
    always(r"\bx(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}\b", M),
    always(r"\bSK[0-9a-fA-F]{32}\b", M),
    always(r"\bre_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}\b", M),
    // Developer tools: Databricks, Linear, Postman, Sentry, Grafana,
    // New Relic, Dynatrace, Harness, Infracost, Prefect, ReadMe,
    // Scalingo, Typeform, Frame.io, Figma, Airtable, Contentful, Notion,
    // Octopus Deploy, MaxMind, Buildkite, CircleCI, Deno Deploy,
    // SonarQube, PlanetScale, Mapbox secret tokens, Facebook.
    always(r"\bdapi[a-f0-9]{32}(?:-[0-9])?\b", M),
    always(r"\blin_(?:api|oauth)_[A-Za-z0-9]{32,}", M),
    always(r"\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b", M),
    always(r"\bsntry[su]_[A-Za-z0-9+/=_]{40,}", M),
    always(
        r"\b(?:glc_[A-Za-z0-9+/]{32,}={0,3}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|eyJrIjoi[A-Za-z0-9]{60,}={0,3})",
        M,
    ),
    always(r"\bNR(?:AK|II|AA)-[A-Za-z0-9\-]{27,32}\b", M),
    always(r"\bdt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}\b", M),
    always(
        r"\b(?:pat|sat)\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}\b",
        M,
    ),
    always(r"\bico-[A-Za-z0-9]{32}\b", M),
    always(r"\bpnu_[A-Za-z0-9]{36}\b", M),
    always(r"\brdme_[a-z0-9]{70}\b", M),
    always(r"\btk-us-[A-Za-z0-9_\-]{48}", M),
    always(r"\btfp_[A-Za-z0-9_\-.=]{59}", M),
    always(r"\bfio-u-[A-Za-z0-9_\-=]{64}", M),
    always(r"\bfigd_[A-Za-z0-9_\-]{40,}", M),
    always(r"\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}\b", M),
    always(r"\bCFPAT-[A-Za-z0-9_\-]{43}", M),
    always(
        r"\b(?:ntn_[0-9]{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43})\b",
        M,
    ),
    always(r"\bAPI-[A-Z0-9]{26}\b", M),
    always(r"\b[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk\b", M),
    always(r"\bbkua_[a-f0-9]{40}\b", M),
    always(r"\bCCIPAT_[A-Za-z0-9]{20,}_[a-f0-9]{40}\b", M),
    always(r"\bddp_[A-Za-z0-9]{36}\b", M),
    always(r"\bsq[pua]_[a-f0-9]{40}\b", M),
    always(r"\bpscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.\-]{32,64}", M),
    always(r"\bsk\.eyJ[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{20,}", M),
    always(r"\bEAA[MC][A-Za-z0-9]{100,}", M),
    // JSON Web Tokens, bare.
    always(
        r"\beyJ[A-Za-z0-9_\-]{4,}\.eyJ[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{4,}",
        M,
    ),
];
