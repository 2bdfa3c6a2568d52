/**
 * Vocabulary of the synthetic content generator (scripts/gen.ts): real English and technical
 * words, roughly in order of how often they turn up in skill documents, so that sampling by rank
 * with a Zipf law gives text whose term statistics look like the real thing (a few very common
 * words, a long tail of rare ones). Lists are whitespace-separated strings to keep this file short.
 */

/** Split a whitespace-separated word list. */
function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => w.length > 0);
}

/** Function words, most frequent first: the head of every Zipf distribution (mostly stop words). */
export const FUNCTION_WORDS = words(`
the of and to a in is for that with on as it be this by are or from at an not your you can when if
use each all any its into only will should must then than more before after without so do does
one two which what how there their they we our but also these those have has was were been may
other such per via over under between first new same both most some no up out about where while
once every still just even much many here own very few next last three four five another since
until because through during against within without upon whether either neither nor least less
instead already always never often usually again later soon rather quite enough almost
`);

/** Common English words of technical prose: verbs, nouns, adjectives and adverbs. */
export const GENERAL_WORDS = words(`
file files run check make sure need needs output input change changes list step steps value values
name names set time data user users code line lines command commands result results error errors
report work works test tests rule rules type types field fields note notes case cases part parts
example examples option options default format text table section sections summary review update
updates create read write find keep add remove return show ask start stop open close call calls
build builds version versions path paths source target current specific clear short long full
small large single multiple common simple safe unsafe valid invalid required optional missing
existing local remote public private main final initial previous following related original
explicit implicit manual automatic quick careful exact approximate important useful relevant
request requests response responses project projects team teams task tasks issue issues problem
problems question questions answer answers reason reasons context detail details level levels
point points number numbers count total limit limits size order state status item items group
groups owner owners document documents page pages link links reference references pattern patterns
approach approaches process processes method methods model models system systems service services
tool tools feature features function functions object objects record records entry entries key keys
account accounts message messages event events action actions decision decisions goal goals plan
plans policy policies risk risks cost costs quality scope impact priority priorities
look looks see check checks verify verifies confirm confirms compare compares explain explains
describe describes include includes contain contains follow follows apply applies avoid avoids
prefer prefers allow allows prevent prevents handle handles support supports provide provides
require requires produce produces generate generates collect collects group summarize summarizes
flag flags mark marks skip skips stop stops treat treats convert converts match matches replace
replaces split splits merge merges move moves copy copies rename renames delete deletes fix fixes
improve improves reduce reduces increase increases measure measures track tracks record log logs
write writes draft drafts edit edits rewrite rewrites publish publishes share shares send sends
receive receives schedule schedules assign assigns approve approves reject rejects review reviews
plan plans prepare prepares organize organizes identify identifies detect detects extract extracts
analyze analyzes evaluate evaluates estimate estimates calculate calculates validate validates
test tests debug debugs trace traces inspect inspects monitor monitors audit audits scan scans
clean cleans sort sorts filter filters search searches select selects choose chooses decide decides
suggest suggests recommend recommends propose proposes highlight highlights list lists note
document documents annotate annotates label labels tag tags name rename format formats
good better best bad worse worst high higher low lower fast faster slow slower easy hard clean
strict loose broken stale fresh recent old older newer latest early late quick simple complex
clear unclear consistent inconsistent accurate precise concise readable reliable robust secure
stable unstable expensive cheap free paid internal external visible hidden active inactive
general special standard custom typical unusual obvious subtle minor major critical severe
likely unlikely possible impossible necessary unnecessary sufficient specific generic manual
carefully clearly quickly directly exactly only briefly safely correctly fully partly mostly
usually rarely typically generally especially explicitly manually automatically immediately
person people customer customers client clients partner partners vendor vendors manager managers
reader readers writer writers author authors reviewer reviewers editor editors maintainer
maintainers contributor contributors stakeholder stakeholders audience audiences student students
teacher teachers candidate candidates employee employees lead leads member members expert experts
day days week weeks month months year years hour hours minute minutes second seconds date dates
morning evening today tomorrow yesterday deadline deadlines calendar quarter quarters period
company companies business businesses product products market markets brand brands price prices
budget budgets revenue sale sales contract contracts agreement agreements invoice invoices
payment payments order orders customer support ticket tickets meeting meetings agenda email
emails letter letters note memo proposal proposals brief briefs outline outlines draft drafts
story stories article articles post posts blog newsletter campaign campaigns content copy
headline headlines title titles paragraph paragraphs sentence sentences word words phrase phrases
tone voice style structure argument arguments evidence claim claims source citation citations
idea ideas topic topics theme themes question list checklist checklists template templates
guide guides guideline guidelines instruction instructions rubric rubrics criteria standard
standards practice practices habit habits routine routines workflow workflows playbook playbooks
handbook handbooks manual manuals tutorial tutorials lesson lessons course courses exercise
exercises quiz quizzes exam exams grade grades score scores feedback comment comments note
world place home office room table chart charts graph graphs map maps image images picture
pictures photo photos video videos audio sound screen screens window windows button buttons
color colors shape shapes font fonts icon icons layout layouts grid grids space spacing margin
money cash credit debit tax taxes fee fees rate rates interest balance balances account ledger
law laws legal clause clauses term terms condition conditions right rights duty duties notice
health safety privacy security trust compliance ethics fairness bias risk harm benefit benefits
growth performance efficiency speed accuracy coverage consistency clarity quality quantity
question answer prompt prompts reply replies chat conversation conversations dialogue thread
mistake mistakes failure failures success successes warning warnings hint hints tip tips
trick tricks shortcut shortcuts default defaults preference preferences setting settings choice
choices alternative alternatives tradeoff tradeoffs constraint constraints assumption assumptions
requirement requirements expectation expectations outcome outcomes result impact effect effects
baseline benchmark benchmarks metric metrics signal signals trend trends spike spikes drop drops
history archive archives backup backups snapshot snapshots copy version draft revision revisions
language languages english spanish french german japanese korean chinese translation translations
region regions country countries city cities address addresses phone location locations zone
begin begins began end ends ended finish finishes finished continue continues continued repeat
repeats repeated wait waits waited retry retries retried resume resumes resumed pause pauses
understand understands learn learns teach teaches explain remember remembers forget forgets
think thinks believe believes know knows want wants like likes try tries help helps give gives
take takes bring brings hold holds leave leaves put puts turn turns seem seems feel feels become
becomes mean means happen happens matter matters depend depends belong belongs exist exists
appear appears remain remains lose loses win wins lead pay pays meet meets offer offers reach
reaches raise raises serve serves expect expects consider considers suggest sell sells spend
spends grow grows open opens walk walks talk talks speak speaks listen listens watch watches
care cares wonder worry worries hope hopes plan fit fits miss misses save saves fill fills
`);

/** Technical vocabulary shared by many kinds of skill. */
export const TECH_WORDS = words(`
api apis json yaml toml csv xml html css markdown sql http https url urls uri endpoint endpoints
server servers client request header headers body query queries parameter parameters argument
flag config configuration environment variable variables secret secrets token tokens key
database databases table tables column columns row rows index indexes schema schemas migration
migrations transaction transactions cache caching queue queues worker workers job jobs cron
script scripts shell bash zsh terminal cli command stdout stderr exit pipe process thread threads
memory cpu disk network latency throughput timeout timeouts retry backoff rate limit concurrency
async await promise promises callback callbacks stream streams buffer buffers event loop
function class interface module modules package packages dependency dependencies library
libraries framework frameworks runtime compiler bundler linter formatter plugin plugins
repository repositories repo repos branch branches commit commits merge rebase diff diffs
patch patches tag release releases changelog pull push fork clone checkout stash hook hooks
test tests testing unit integration snapshot fixture fixtures mock mocks stub coverage assertion
assertions debugger breakpoint stacktrace exception exceptions crash crashes bug bugs regression
regressions deploy deploys deployment deployments pipeline pipelines build artifact artifacts
container containers image images registry cluster clusters node nodes pod pods namespace
service mesh proxy gateway load balancer ingress dns certificate certificates tls ssl ssh
encryption hash hashing signature signatures permission permissions role roles access
authentication authorization oauth session sessions cookie cookies password passwords
log logging metric tracing trace alert alerts dashboard dashboards incident incidents outage
uptime availability scaling autoscaling replica replicas backup restore snapshot volume volumes
storage bucket buckets object blob file filesystem directory directories folder folders symlink
string strings integer integers number float boolean array arrays list map maps set sets tuple
null undefined enum type types generic generics struct pointer pointers reference closure
parser parsing lexer tokenizer grammar syntax regex regular expression expressions template
encoding decoding unicode utf ascii byte bytes bit bits binary hex base64 compression gzip
input output stdin file path glob wildcard pattern match matcher selector selectors element
elements attribute attributes property properties component components state props render
rendering layout responsive viewport browser browsers dom event handler listener
mobile desktop web app apps application applications frontend backend fullstack microservice
microservices monolith architecture design pattern patterns refactor refactoring cleanup
readme docs documentation comment comments docstring annotation annotations typing lint
error warning info debug verbose quiet dry run preview diff summary report json output
model models prompt prompts agent agents embedding embeddings vector vectors inference training
dataset datasets evaluation eval evals benchmark accuracy precision recall threshold classifier
upload download sync async import export serialize deserialize encode decode parse validate
version semver major minor patch lockfile manifest license licenses checksum integrity
webhook webhooks callback notification notifications subscription subscriptions channel channels
workspace workspaces monorepo project projects directory root config environment staging
production development preview sandbox local remote origin upstream downstream mirror
`);

/** Topic words per top-level category slug (the spec's 24): they make skills of a category share terms. */
export const TOPIC_WORDS: Record<string, string[]> = {
  development: words(`code review refactor refactoring git commit branch rebase merge diff lint
    linter formatter typescript javascript python rust go java kotlin swift ruby php csharp cpp
    editor vscode neovim ide debugging debugger dependency upgrade monorepo changelog semver
    conventional commits hooks precommit codemod dead code complexity naming readability`),
  frontend: words(`react vue svelte angular nextjs nuxt astro vite webpack tailwind css sass html
    component components hooks state redux zustand accessibility aria wcag responsive layout
    flexbox grid animation storybook hydration bundle lighthouse webvitals font typography
    form forms validation router routing ssr csr browser dom`),
  backend: words(`nodejs express fastify nestjs django flask fastapi rails laravel spring go gin
    python rust axum actix graphql rest grpc endpoint middleware orm prisma sqlalchemy queue
    worker celery redis kafka rabbitmq websocket session authentication jwt oauth pagination
    caching idempotency webhook cron microservice`),
  devops: words(`docker dockerfile compose kubernetes kubectl helm terraform opentofu pulumi ansible
    github actions gitlab jenkins circleci pipeline ci cd deploy rollout rollback canary
    prometheus grafana alertmanager loki datadog observability sre oncall runbook incident
    postmortem infrastructure provisioning nginx systemd linux`),
  data: words(`pandas polars numpy dataframe notebook jupyter spark dbt airflow etl elt pipeline
    warehouse snowflake bigquery redshift duckdb parquet csv analytics dashboard visualization
    matplotlib seaborn plotly tableau metabase cohort funnel regression statistics sql query
    aggregation outlier cleaning schema lineage`),
  'ai-ml': words(`llm llms prompt prompts agent agents embedding embeddings vector rag retrieval
    finetuning fine tuning pytorch tensorflow jax transformers huggingface tokenizer inference
    evaluation evals benchmark dataset training model models classifier mlops mlflow
    hallucination guardrails context window reasoning openai anthropic claude gpt`),
  security: words(`vulnerability vulnerabilities cve owasp xss csrf injection sqli ssrf secrets
    credential credentials leak scanner sast dast pentest threat model hardening iam rbac
    least privilege audit compliance soc2 gdpr hipaa encryption tls certificate sbom supply
    chain dependabot snyk trivy semgrep firewall phishing incident`),
  mobile: words(`ios android swift swiftui kotlin jetpack compose flutter dart react native expo
    xcode gradle testflight play store app store simulator emulator push notification deeplink
    offline sync accessibility localization crash crashlytics signing provisioning profile
    release build screenshot`),
  cloud: words(`aws azure gcp lambda serverless ec2 s3 cloudfront cloudwatch iam vpc subnet
    route53 cloudflare workers vercel netlify fly render cloud run functions billing cost
    finops quota region availability zone autoscaling load balancer cdn storage bucket
    kms secrets manager eventbridge sqs sns dynamodb`),
  database: words(`postgres postgresql mysql sqlite mongodb redis elasticsearch cassandra dynamodb
    supabase planetscale schema migration migrations index indexes query planner explain
    analyze vacuum replication sharding partition backup restore transaction isolation
    deadlock constraint foreign key normalization orm connection pool`),
  testing: words(`unit integration end playwright cypress selenium jest vitest mocha pytest junit
    mock mocks stub fixture fixtures coverage flaky snapshot property fuzzing mutation
    regression test plan testcase assertion assertions tdd bdd gherkin cucumber load
    performance k6 contract e2e harness`),
  api: words(`openapi swagger rest graphql grpc endpoint endpoints schema versioning pagination
    filtering sorting rate limiting authentication api key oauth webhook idempotency status
    codes error format json resource resources http verbs postman insomnia sdk client
    specification contract deprecation changelog`),
  marketing: words(`seo keyword keywords backlink ranking serp content calendar campaign campaigns
    newsletter email subject line open rate click conversion landing page funnel audience
    persona social media instagram linkedin tiktok twitter hashtag engagement brand awareness
    analytics attribution utm copywriting ads`),
  design: words(`figma sketch wireframe wireframes prototype mockup mockups design system tokens
    typography color palette contrast spacing grid layout icon icons illustration branding logo
    moodboard usability heuristic critique user research persona journey ux ui motion
    accessibility visual hierarchy`),
  legal: words(`contract contracts clause clauses nda indemnity liability warranty termination
    jurisdiction governing law privacy policy terms service gdpr ccpa consent data processing
    agreement dpa trademark copyright license licensing compliance redline negotiation counsel
    litigation discovery memo statute regulation`),
  finance: words(`budget budgets forecast forecasting variance invoice invoices reconciliation
    ledger accounting bookkeeping revenue expense expenses cash flow balance sheet income
    statement profit margin tax taxes payroll audit quickbooks xero spreadsheet excel
    valuation kpi runway burn accrual depreciation`),
  hr: words(`hiring recruiting candidate candidates interview interviews scorecard job
    description offer onboarding offboarding performance review feedback compensation salary
    benefits policy handbook employee employees engagement survey retention promotion
    career ladder diversity inclusion training payroll leave`),
  education: words(`lesson lessons lesson plan curriculum syllabus course courses student students
    teacher teachers classroom quiz quizzes assessment rubric grading feedback learning
    objectives standards worksheet homework tutoring flashcards study guide lecture
    differentiation literacy math science reading`),
  writing: words(`writing editing proofreading grammar style tone voice clarity concise outline
    draft drafts revision blog post article essay story narrative technical writing
    documentation readme tutorial copywriting headline paragraph sentence plain language
    readability citation summary abstract`),
  sales: words(`sales prospect prospects lead leads pipeline crm salesforce hubspot outreach cold
    email call script discovery demo proposal quote pricing negotiation objection objections
    closing deal deals account executive quota forecast territory renewal upsell churn
    followup cadence`),
  support: words(`support ticket tickets helpdesk zendesk intercom freshdesk customer customers
    response macro macros escalation sla triage knowledge base faq troubleshooting refund
    complaint satisfaction csat nps chat live agent agents tone empathy resolution
    followup onboarding`),
  management: words(`management manager managers team teams one on one meeting meetings agenda okr
    okrs goals roadmap planning sprint retrospective standup delegation hiring feedback
    performance review stakeholder stakeholders status update report prioritization
    decision decisions strategy alignment`),
  productivity: words(`productivity todo tasks task calendar schedule scheduling focus time blocking
    notes note taking notion obsidian email inbox zero meeting notes summary checklist
    habit habits reminder reminders automation shortcut shortcuts workflow spreadsheet
    template templates weekly review planning`),
  research: words(`research literature review paper papers citation citations bibliography
    zotero abstract hypothesis methodology survey interview qualitative quantitative
    analysis statistics dataset experiment experiments findings synthesis systematic
    meta analysis peer review arxiv pubmed thesis`),
};

/** Two- and three-word collocations that real skills repeat (phrase queries hit these). */
export const PHRASES = words(`
pull_request code_review unit_tests error_handling best_practices pull_requests root_cause
step_by_step test_coverage release_notes commit_message merge_conflict dry_run exit_code
edge_cases happy_path breaking_change breaking_changes rate_limit status_code environment_variables
access_control least_privilege single_source_of_truth source_of_truth follow_up action_items
open_questions next_steps key_findings executive_summary plain_language style_guide brand_voice
target_audience call_to_action landing_page subject_line open_rate customer_support knowledge_base
service_level incident_response on_call post_mortem load_balancer health_check docker_compose
compose_file github_actions ci_pipeline build_cache cold_start connection_pool query_plan
data_model data_pipeline feature_flag feature_flags design_system color_palette user_research
job_description interview_questions performance_review lesson_plan learning_objectives
literature_review research_question cash_flow balance_sheet privacy_policy terms_of_service
machine_learning large_language_model prompt_injection context_window vector_store
`).map((p) => p.replace(/_/g, ' '));

/** Agent nouns that end real skill names ("Terraform Plan Reviewer"). */
export const NAME_ROLES = words(`Reviewer Auditor Helper Assistant Doctor Generator Builder Writer
  Analyzer Toolkit Guide Checker Optimizer Planner Advisor Coach Formatter Linter Fixer Scanner
  Tracker Manager Designer Drafter Mentor Navigator Inspector Explainer Summarizer Translator
  Migrator Validator Profiler Tuner Curator Composer Scout Sentinel Wizard Studio Kit Playbook
  Workflow Expert Specialist Companion Copilot Pro Lab`);

/** Nouns that sit in the middle of skill names ("Plan", "Release", "Invoice"). */
export const NAME_OBJECTS = words(`Plan Release Invoice Contract Changelog Commit Branch Schema
  Query Migration Pipeline Deployment Cluster Container Image Bucket Budget Report Dashboard
  Campaign Newsletter Email Landing Brand Style Design Component Form Accessibility Test
  Coverage Fixture Snapshot Incident Postmortem Runbook Alert Metric Log Trace Cost Security
  Secret Dependency License Privacy Policy Interview Onboarding Lesson Quiz Rubric Essay Blog
  Docs README API Endpoint Webhook Prompt Agent Dataset Notebook Spreadsheet Forecast Ledger
  Ticket Meeting Roadmap Sprint Retro Research Citation Paper Survey Pitch Proposal Deal`);

/** Given and family names for authors and personal owners. */
export const GIVEN_NAMES = words(`Maria Jane John Wei Aiko Priya Carlos Fatima Liam Noah Emma Olivia
  Ava Sofia Lucas Mateo Yuki Hiroshi Min Ji Seo Arjun Ananya Omar Layla Ahmed Elena Ivan Olga
  Pierre Camille Hans Greta Lars Ingrid Kofi Amara Chen Li Mei Tom Sarah David Anna Paul Rosa
  Diego Lucia Marco Giulia Sven Nina Ravi Deepa Kenji Sakura Hana Jonas Felix Clara Leo Mia`);
export const FAMILY_NAMES = words(`Gonzalez Smith Johnson Lee Kim Park Chen Wang Zhang Liu Tanaka
  Suzuki Sato Patel Sharma Singh Khan Ali Hassan Garcia Martinez Lopez Rossi Bianchi Muller
  Schmidt Fischer Weber Dubois Martin Bernard Petrov Ivanova Novak Kowalski Nielsen Hansen
  Larsen Berg Silva Santos Costa Okafor Mensah Nguyen Tran Brown Taylor Wilson Davis Clark`);

/** Words used to make organization owners ("cloudsmith-io", "devkit-labs"). */
export const ORG_STEMS = words(`acme bright cloud code data dev ever fast flow forge grid harbor
  hyper infra iron lab lattice ledger lex light logic loop lumen meta mint nimbus north nova
  open orbit pixel prism quant quill rapid relay rust sage scale sec ship signal sky smith
  solid spark stack star stone stream studio swift terra tide true vector wave wise zen`);
export const ORG_SUFFIXES = words(`io labs hq dev ai team works tools org app hub co systems cloud`);

/** Accented words (accent-insensitive search finds them by their plain spelling). */
export const ACCENTED_WORDS = words(`café résumé naïve façade déjà señor jalapeño crème brûlée
  über Zürich München São Paulo Málaga piñata coöperate rôle`);

/** Languages of fenced code blocks, most frequent first. */
export const CODE_LANGS = ['sh', 'ts', 'python', 'yaml', 'json', 'sql', 'go', 'md'] as const;

/** Less frequent English words: the long tail of the vocabulary. */
export const RARE_WORDS = words(`
abandon abbreviate abide ability abnormal abrupt absence absorb abstract abundant academic
accelerate accent acceptable accessory accidental accommodate accompany accomplish accordance
accumulate accuracy accuse achieve acknowledge acquire acquisition adapt adequate adjacent
adjust administer admire admit adopt advance advantage adverse advocate aesthetic affect
affirm afford aggregate agile aisle alarm album alert align allocate alter ambiguous ambition
amend amount ample analogy anchor ancient angle announce annual anomaly anticipate anxious
apparent appeal append appetite applaud appliance appraise appreciate apprentice approximate
arbitrary arc archive arena arise arrange arrival articulate artisan ascend aspect assemble
assert assess asset assist associate assure atlas atmosphere attach attain attempt attend
attitude attract auction augment authentic autonomy auxiliary avenue average await awkward
axis backdrop badge baggage bake balcony ballot bamboo banner bargain barrel barrier basin
batch beacon bearing beneath beverage bias bicycle bind biography blanket blend blossom blueprint
blunt blur boast bold bolt bond bonus boost border borrow bounce boundary bracket brave breach
breadth breeze bridge brisk broad brochure browse bubble buckle buffer bulk bulletin bundle
burden bureau burst cabin cabinet cadence calibrate calm campus canal candid canvas capable
capacity capsule caption capture cargo carpet carve cascade casual catalog catalyst category
caution ceiling celebrate cellar cement census ceremony certain chamber champion chaos chapter
charter chase cheap cherish chess chronic chunk circuit circulate cite civic civil clarify
classic clerk clever cliff climate climb clinic cluster coarse coast cohesive coin collapse
colleague collision colony column combine comfort commence commerce commit commodity compact
compass compatible compel compensate compile complement comply compose compound comprehensive
compress comprise compute conceal concede conceive concentrate concept concern concise conclude
concrete condense conduct confer confident confine conflict conform confront congress conjunction
conscious consecutive consensus consent conserve consist console constant constitute construct
consult consume contact contemplate contend contest continent contingent contract contrary
contrast contribute controversy convene convention converge convey convince coordinate cope
copper cordial core corner corporate correlate correspond corridor corrupt council counsel
counter couple courage courier courtesy craft crane crash crawl crew crisis crisp criterion
crop crowd crucial cruise crumble crystal cultivate cumulative curiosity currency curtain
curve cushion custody cycle dairy damp dawn debate debris decade decent deck declare decline
decorate dedicate deduct default defect defend deficit define definite degrade delay delegate
deliberate delicate delight deliver demand demonstrate denote dense depart depict deploy deposit
depot derive descend deserve designate desk despite destination detach detain deter
deteriorate determine devote diagnose diagram dialect diameter dictate differ diffuse digest
dignity dilemma dimension diminish diploma discard discern discipline disclose discount discrete
dismiss dispatch disperse display dispose dispute disrupt dissolve distant distinct distort
distribute district diverse divide doctrine domain domestic dominant donate dormant dose draft
drain dramatic drastic drift drill durable dwell dynamic eager earnest ease echo ecology economy
edge elaborate elastic elect elegant elevate eligible eliminate embark embed embrace emerge
eminent emit emphasis empirical employ empty enable enact enclose encounter endeavor endorse
endure enforce engage enhance enlarge enormous enrich enroll ensure entail enterprise entity
envelope episode equation equip equivalent erode erupt escalate essence establish esteem
eternal evaluate evident evoke evolve exceed excerpt excess exclude excursion execute exempt
exert exhaust exhibit expand expedite expend expertise expire explicit exploit explore expose
extend extent extract fabric facilitate faculty fade faint fairly famine fascinate fatigue
feasible feature federal fertile fiber fiction fierce finance finite fiscal flavor flaw fleet
flexible flourish fluctuate fluent focus fold forecast forge formula forum foster fraction
fragile fragment frame franchise frequent friction frontier frost fulfill fundamental furnish
gadget galaxy gallery gamble gap garment gather gauge gazette generate genre genuine gesture
glacier glance glimpse global glossary govern gradual graduate grain grant graphic grasp
gravity grid grief grip guarantee guild habitat halt harbor harmony harsh harvest hazard
heading heritage hesitate hierarchy highlight hinge horizon hostile humble hybrid hypothesis
ideal identical ignite illuminate illustrate imitate immense immune impair implement implicit
imply impose impulse incentive incident incline incorporate increment incur indicate indigenous
induce industry inevitable infer inflate inherent inhibit initiate inject innovate inquire
insert insight inspect install instance instinct institute insulate integral integrate intend
intense interact interfere interim interpret interval intervene intimate intricate intrinsic
invade invent invest invoke isolate itinerary jargon journal journey judicial junction
justify keen kernel kindle label labor ladder landmark lapse latent latitude launch layer
lean lecture legacy legend legible legislate legitimate leisure lender lens lever levy liable
liberal license likewise linear linger liquid literal literary lobby locate lodge logic
longitude loyal lucid lumber luxury magnet magnitude maintain mandate maneuver manifest
manipulate margin marine marvel mature maximize meadow mechanism mediate medium melody memoir
mentor merchant merit metaphor meticulous migrate milestone mineral minimal minimize minor
miracle mischief mobile moderate modest modify moisture momentum monitor monopoly moral
mortgage motion motive mount multiply municipal mutual myth narrate narrow native navigate
negligible negotiate neutral niche noble nominal norm notable notion notorious novel nuance
nucleus nurture objective oblige obscure observe obstacle obtain occasion occupy occur offset
omit operate oppose optimal optimism oral orbit orchestra ordinary organic orient origin
ornament outbreak outlet outline outlook outright overall overcome overlap overlook oversee
overt pace pack panel paradigm paragraph parallel parameter parcel partial participate
particle passage passion patent patience patron pause peak peculiar pedestrian penalty pending
perceive percent perception perimeter periodic permanent persist perspective persuade pertinent
phase phenomenon philosophy pierce pilot pioneer pivot plain plausible pledge plunge plural
poetry polar portion portrait pose possess postpone potent practical precede precise predict
preliminary premise premium prescribe preserve prestige presume prevail prime principal prior
pristine probe proceed proclaim procure profile profound prohibit prolong prominent prompt
prone propel proportion prospect prosper protocol provoke proximity prudent publicity pursue
puzzle quarterly quest quota radical random range rapid ratio rational realm rebel recall
recess recipe reckon reconcile recruit rectangle recur redeem refine reflect reform refuge
regime register regulate rehearse reign reinforce relay relevant reliable relieve reluctant
remedy remote render renew renovate repair repel reproduce reptile resemble reside resign
resilient resolve resort restore restrain retain retreat retrieve reveal revenue reverse
revise revive rhythm rigid ritual rival robust rotate rough route royal rubric rural sacred
salvage sample sanction satellite saturate scarce scatter scenario scheme scholar scope
scrutiny sculpture seal secure segment seldom sequence serene session severe shelter shift
shortage shrink signify simulate simultaneous sincere skeptical slice slight slope sober
solar solicit solitary solvent sophisticated sovereign spare sparse spatial specimen spectrum
speculate sphere spiral splendid sponsor spontaneous stable stack staple static steady steep
stimulate stock strain strategy stretch strive subdue submit subsequent subsidy substance
substitute subtle suburb succeed successor suffice summit superb supervise supplement suppress
supreme surge surplus surround suspend sustain swap symbol symmetry symptom synthesis tactic
tangible tariff tedious temper tempo tenant tension tentative terminal terrain testimony
texture thesis thorough threshold thrive tidy tolerate torch tournament trace trait transfer
transform transit transmit transparent trauma traverse tremendous trend trial tribute trigger
trim triumph trivial tropical turbine tutor ultimate undergo undermine underscore undertake
uniform unify unique universal unveil upgrade uphold urban urge utility utilize utmost vacant
vague valid valley vanish vapor variable vast vehicle velocity vendor venture verdict verify
versatile verse vertical vessel veteran viable vibrant vicinity vigorous vintage violate
virtual visible vital vivid vocal volatile volume voluntary voyage vulnerable wander warrant
wealth weave welfare whereas widespread wilderness withdraw withstand witness worthwhile yield
zeal zenith
`);
