/**
 * The word table of the category classifier (builder/import/classify.ts, docs/import.md
 * "Categories"): for each category or subcategory slug, the words and phrases that say a skill
 * belongs there, each with a weight:
 *
 * - 3: the word alone names the shelf (`kubernetes` → devops, `seo` → marketing);
 * - 2: a strong hint that needs company (`pipeline`, `dashboard`);
 * - 1: a weak hint, counted only next to others (`python`, `data`).
 *
 * Words are matched as whole words (lower case; a plural `s` is dropped from both sides), phrases
 * as consecutive words: `auth` never matches inside `author`. A subcategory's words count for its
 * parent category too. `notIn` names repository domains where a word means something else: in a
 * science collection "compliance" and "risk" are not security, "pipeline" is not CI/CD.
 */

/** One line of the table. */
export interface Rule {
  /** A category or subcategory slug of categories.json. */
  slug: string;
  weight: 1 | 2 | 3;
  words: readonly string[];
  /** Repository domains (category slugs) in which these words do not count. */
  notIn?: readonly string[];
}

/** The subcategories' parents (a subcategory's score counts for its parent as well). */
export const PARENTS: Readonly<Record<string, string>> = {
  'code-review': 'development', refactoring: 'development', git: 'development',
  react: 'frontend', css: 'frontend', accessibility: 'frontend',
  nodejs: 'backend', python: 'backend', go: 'backend',
  'ci-cd': 'devops', containers: 'devops', 'infrastructure-as-code': 'devops', monitoring: 'devops',
  analytics: 'data', etl: 'data', visualization: 'data',
  llm: 'ai-ml', agents: 'ai-ml', mlops: 'ai-ml',
  appsec: 'security', secrets: 'security', compliance: 'security',
  seo: 'marketing', 'social-media': 'marketing', 'email-marketing': 'marketing',
  'technical-writing': 'writing', copywriting: 'writing',
  bioinformatics: 'science', chemistry: 'science', medicine: 'science',
};

const SCIENCE = ['science'];

export const RULES: readonly Rule[] = [
  // development
  { slug: 'development', weight: 3, words: ['refactor', 'refactoring', 'debugging', 'debug', 'programming', 'codebase', 'software engineering', 'developer experience', 'dx', 'idiomatic', 'clean code', 'design pattern', 'code quality', 'linting', 'linter', 'compiler', 'embedded', 'firmware', 'microcontroller', 'microcontrollers', 'scaffolding', 'scaffold', 'boilerplate', 'c++', 'cpp', 'rust', 'java', 'kotlin', 'scala', 'haskell', 'elixir', 'ruby', 'php', 'c#', '.net', 'dotnet', 'javascript', 'typescript', 'es6', 'shell script', 'shell scripts', 'bash', 'game development', 'game engine', 'unity', 'unreal', 'godot', 'blockchain', 'smart contract', 'solidity', 'web3', 'monorepo', 'error handling', 'exceptions', 'coding'] },
  { slug: 'development', weight: 2, words: ['code', 'developer', 'developers', 'software', 'implementation', 'implementing', 'architecture', 'project', 'projects', 'cli', 'library', 'framework', 'sdk', 'ide', 'game', 'games', 'tooling', 'modernization', 'legacy', 'memory safety', 'concurrency', 'async', 'functional programming', 'dependencies', 'dependency management'] },
  { slug: 'code-review', weight: 3, words: ['code review', 'code reviews', 'review comments', 'pr review', 'pr reviews', 'pull request review', 'reviewer', 'static analysis'] },
  { slug: 'refactoring', weight: 3, words: ['refactor', 'refactoring', 'codemod', 'codemods', 'legacy code', 'modernize', 'modernizing', 'modernization', 'cleanup', 'tech debt', 'technical debt'] },
  { slug: 'git', weight: 3, words: ['git', 'commit', 'commits', 'branch', 'pull request', 'pull requests', 'pr', 'prs', 'rebase', 'merge conflict', 'github', 'gitlab', 'changelog', 'conventional commit', 'conventional commits', 'gh'] },

  // frontend
  { slug: 'frontend', weight: 3, words: ['frontend', 'front-end', 'ui component', 'ui components', 'web app', 'webapp', 'web application', 'web applications', 'html', 'dom', 'svelte', 'vue', 'angular', 'nextjs', 'next.js', 'three.js', 'webgl', 'web component', 'web components', 'landing page', 'website', 'websites', 'web page', 'web pages', 'responsive'] },
  { slug: 'frontend', weight: 2, words: ['ui', 'user interface', 'component', 'components', 'client-side', 'artifact', 'artifacts'] },
  { slug: 'frontend', weight: 1, words: ['browser', 'browsers'] },
  { slug: 'react', weight: 3, words: ['react', 'reactjs', 'jsx', 'react hooks', 'next.js', 'nextjs', 'react native', 'redux', 'shadcn'] },
  { slug: 'css', weight: 3, words: ['css', 'tailwind', 'sass', 'scss', 'css-in-js', 'stylesheet', 'styling'] },
  { slug: 'accessibility', weight: 3, words: ['accessibility', 'a11y', 'wcag', 'screen reader', 'aria'] },

  // backend
  { slug: 'backend', weight: 3, words: ['backend', 'back-end', 'server-side', 'microservice', 'microservices', 'cqrs', 'event sourcing', 'event-sourced', 'event store', 'event stores', 'read model', 'read models', 'domain-driven', 'ddd', 'message queue', 'kafka', 'rabbitmq', 'grpc', 'django', 'flask', 'fastapi', 'express', 'spring boot', 'rails', 'laravel', 'asp.net', 'distributed system', 'distributed systems', 'web server'] },
  { slug: 'backend', weight: 2, words: ['server', 'servers', 'caching', 'scalable'] },
  { slug: 'nodejs', weight: 3, words: ['node.js', 'nodejs', 'npm', 'deno', 'nestjs'] },
  { slug: 'python', weight: 3, words: ['python', 'pyproject', 'pypi', 'pydantic', 'asyncio', 'django', 'flask', 'fastapi'], notIn: SCIENCE },
  { slug: 'go', weight: 3, words: ['golang', 'goroutine', 'goroutines'] },

  // devops
  { slug: 'devops', weight: 3, words: ['devops', 'sre', 'site reliability', 'deployment', 'deployments', 'deploy', 'incident', 'incidents', 'incident response', 'on-call', 'oncall', 'postmortem', 'postmortems', 'server management', 'rollout', 'canary', 'blue-green', 'zero-downtime', 'tmux', 'cron', 'linux', 'sysadmin', 'service mesh', 'istio'] },
  { slug: 'devops', weight: 2, words: ['infrastructure', 'operations', 'production', 'scaling', 'reliability', 'uptime', 'release', 'releases'] },
  { slug: 'devops', weight: 1, words: ['configuration'] },
  { slug: 'ci-cd', weight: 3, words: ['ci', 'ci/cd', 'cicd', 'continuous integration', 'continuous delivery', 'github actions', 'gitlab ci', 'jenkins', 'build pipeline', 'deployment pipeline', 'deployment pipelines', 'ci checks', 'pr checks'] },
  { slug: 'ci-cd', weight: 2, words: ['pipeline', 'pipelines'], notIn: SCIENCE },
  { slug: 'containers', weight: 3, words: ['docker', 'container', 'containers', 'kubernetes', 'k8s', 'helm', 'dockerfile', 'docker compose'] },
  { slug: 'infrastructure-as-code', weight: 3, words: ['terraform', 'pulumi', 'ansible', 'cloudformation', 'infrastructure as code', 'iac', 'opentofu', 'bicep'] },
  { slug: 'monitoring', weight: 3, words: ['monitoring', 'observability', 'prometheus', 'grafana', 'alerting', 'tracing', 'slo', 'slos', 'opentelemetry', 'error tracking', 'sentry'] },
  { slug: 'monitoring', weight: 2, words: ['logs', 'logging', 'alert', 'alerts'] },

  // data
  { slug: 'data', weight: 3, words: ['dataframe', 'dataframes', 'tabular', 'dataset', 'datasets', 'data analysis', 'data processing', 'data engineering', 'data pipeline', 'data pipelines', 'big data', 'data science', 'spreadsheet', 'spreadsheets', 'excel', 'xlsx', 'csv', 'pandas', 'polars', 'numpy', 'spark', 'dask', 'data warehouse', 'dbt', 'airflow', 'time series', 'time-series', 'forecasting', 'statistics', 'statistical', 'data quality', 'data validation', 'geospatial', 'gis', 'scraping', 'scrape', 'web scraping', 'extract data'] },
  { slug: 'data', weight: 1, words: ['data', 'table', 'tables', 'query', 'queries'] },
  { slug: 'analytics', weight: 3, words: ['analytics', 'metrics', 'kpi', 'kpis', 'statistical analysis', 'hypothesis test', 'hypothesis tests', 'a/b test', 'a/b testing', 'cohort', 'exploratory data analysis', 'eda', 'business intelligence'] },
  { slug: 'analytics', weight: 2, words: ['insights'] },
  { slug: 'etl', weight: 3, words: ['etl', 'elt', 'data pipeline', 'data pipelines', 'ingestion', 'airflow', 'dbt', 'spark', 'data transformation', 'data transformations', 'data integration', 'streaming data', 'cdc'] },
  { slug: 'visualization', weight: 3, words: ['visualization', 'visualizations', 'visualize', 'chart', 'charts', 'plot', 'plots', 'plotting', 'matplotlib', 'seaborn', 'plotly', 'figure', 'figures', 'infographic', 'infographics', 'dashboard', 'dashboards'] },
  { slug: 'visualization', weight: 2, words: ['diagram', 'diagrams', 'mermaid'] },

  // ai-ml
  { slug: 'ai-ml', weight: 3, words: ['machine learning', 'deep learning', 'neural network', 'neural networks', 'artificial intelligence', 'ai', 'ml', 'pytorch', 'tensorflow', 'scikit-learn', 'sklearn', 'reinforcement learning', 'transformer', 'transformers', 'hugging face', 'huggingface', 'diffusion', 'model training', 'fine-tuned', 'fine-tuning', 'finetuning', 'inference', 'classifier', 'embedding', 'embeddings', 'vector database', 'computer vision', 'nlp', 'speech', 'tts', 'transcription', 'gpu', 'cuda', 'gymnasium', 'ai-powered', 'image generation', 'generative ai', 'claude code', 'claude api', 'codex', 'copilot', 'chatgpt', 'gpt', 'model context protocol'] },
  { slug: 'ai-ml', weight: 2, words: ['mcp'] },
  { slug: 'ai-ml', weight: 1, words: ['model', 'models', 'training', 'predict', 'prediction'] },
  { slug: 'llm', weight: 3, words: ['llm', 'llms', 'large language model', 'large language models', 'prompting', 'prompt engineering', 'rag', 'retrieval-augmented', 'context window', 'token counting', 'chatbot', 'claude api', 'openai api', 'langchain', 'llamaindex', 'litellm', 'openrouter', 'perplexity', 'gguf', 'lora', 'quantization', 'quantized', 'semantic memory', 'context restoration'] },
  { slug: 'llm', weight: 2, words: ['prompt', 'prompts'] },
  { slug: 'agents', weight: 3, words: ['agent', 'agents', 'agentic', 'multi-agent', 'subagent', 'subagents', 'claude code', 'codex', 'ai agent', 'ai agents', 'autonomous', 'tool use', 'mcp server', 'mcp servers', 'human-in-the-loop', 'skill creator', 'create skills', 'creating skills', 'new skill', 'existing skill', 'agent skills', 'codex skills', 'install skills'] },
  { slug: 'agents', weight: 1, words: ['orchestration'] },
  { slug: 'mlops', weight: 3, words: ['mlops', 'ml pipeline', 'ml pipelines', 'model deployment', 'model registry', 'experiment tracking', 'checkpoint', 'checkpoints', 'model serving', 'mlflow', 'fine-tuned model', 'quantized', 'quantization', 'safetensors', 'gguf'] },

  // security
  { slug: 'security', weight: 3, words: ['security', 'secure', 'securing', 'vulnerability', 'vulnerabilities', 'exploit', 'exploits', 'exploitation', 'exploiting', 'penetration testing', 'pentest', 'pentesting', 'red team', 'bug bounty', 'privilege escalation', 'privesc', 'malware', 'threat', 'threats', 'threat model', 'threat modeling', 'attack', 'attacks', 'xss', 'csrf', 'sql injection', 'prompt injection', 'command injection', 'owasp', 'cve', 'hardening', 'zero-trust', 'zero trust', 'mtls', 'tls', 'encryption', 'cryptographic', 'authentication', 'authorization', 'oauth', 'oauth2', 'jwt', 'rbac', 'access control', 'auth', 'forensics', 'reconnaissance', 'firewall', 'siem', 'security audit'], notIn: SCIENCE },
  { slug: 'security', weight: 2, words: ['compliance', 'privacy', 'permission', 'permissions'], notIn: SCIENCE },
  { slug: 'appsec', weight: 3, words: ['appsec', 'application security', 'sast', 'dast', 'security scanning', 'security review', 'secure coding', 'vulnerability scanning', 'dependency scanning', 'xss', 'csrf', 'sql injection', 'owasp'] },
  { slug: 'secrets', weight: 3, words: ['secrets', 'secret management', 'secrets management', 'vault', 'credential', 'credentials', 'certificate', 'certificates', 'key rotation'] },
  { slug: 'compliance', weight: 3, words: ['gdpr', 'hipaa', 'soc 2', 'soc2', 'pci', 'pci-dss', 'iso 27001', 'compliance controls', 'audit trail', 'compliance'], notIn: SCIENCE },

  // mobile
  { slug: 'mobile', weight: 3, words: ['mobile', 'ios', 'android', 'swift', 'swiftui', 'kotlin', 'flutter', 'react native', 'expo', 'mobile app', 'mobile apps', 'app store', 'xcode'] },

  // cloud
  { slug: 'cloud', weight: 3, words: ['cloud', 'aws', 'azure', 'gcp', 'google cloud', 'serverless', 'aws lambda', 'cloudflare', 's3', 'ec2', 'cloud-native', 'multi-cloud', 'vercel', 'netlify', 'heroku'] },

  // database
  { slug: 'database', weight: 3, words: ['database', 'databases', 'sql', 'postgresql', 'postgres', 'mysql', 'sqlite', 'mongodb', 'redis', 'schema design', 'table design', 'orm', 'orms', 'prisma', 'sequelize', 'typeorm', 'database migration', 'database migrations', 'nosql', 'dynamodb', 'cassandra', 'elasticsearch', 'query optimization', 'query performance', 'materialized view', 'materialized views', 'event store', 'event stores', 'data model', 'data modeling', 'supabase', 'ninox', 'airtable'] },
  { slug: 'database', weight: 2, words: ['migration', 'migrations', 'indexing', 'schema', 'schemas'] },

  // testing
  { slug: 'testing', weight: 3, words: ['test', 'tests', 'testing', 'unit test', 'unit tests', 'e2e', 'end-to-end', 'playwright', 'cypress', 'selenium', 'jest', 'vitest', 'pytest', 'bats', 'tdd', 'test-driven', 'qa', 'quality assurance', 'test coverage', 'bug tracking', 'load testing', 'performance testing', 'evals'], notIn: SCIENCE },
  { slug: 'testing', weight: 2, words: ['bug', 'bugs', 'regression', 'coverage', 'benchmark'], notIn: SCIENCE },

  // api
  { slug: 'api', weight: 3, words: ['api', 'apis', 'rest api', 'restful', 'graphql', 'openapi', 'swagger', 'endpoint', 'endpoints', 'webhook', 'webhooks', 'api design', 'api client', 'rate limit', 'rate limiting'] },
  { slug: 'api', weight: 1, words: ['integration', 'integrations', 'http'] },

  // marketing
  { slug: 'marketing', weight: 3, words: ['marketing', 'campaign', 'campaigns', 'brand', 'branding', 'advertising', 'ads', 'cro', 'conversion rate', 'referral', 'affiliate', 'viral', 'influencer', 'content marketing', 'competitor', 'competitors', 'competitive', 'positioning', 'go-to-market', 'gtm', 'paywall', 'paywalls', 'upsell', 'pricing page', 'product hunt', 'domain name', 'domain names'] },
  { slug: 'marketing', weight: 2, words: ['growth', 'audience', 'engagement', 'launch'] },
  { slug: 'seo', weight: 3, words: ['seo', 'search engine optimization', 'crawlability', 'indexation', 'keyword research', 'backlink', 'backlinks', 'serp', 'meta tag', 'meta tags', 'schema markup', 'organic traffic'] },
  { slug: 'seo', weight: 2, words: ['ranking', 'rankings'] },
  { slug: 'social-media', weight: 3, words: ['social media', 'linkedin', 'twitter', 'tweet', 'tweets', 'instagram', 'tiktok', 'facebook', 'youtube', 'reddit', 'social content', 'content calendar', 'hashtag', 'hashtags'] },
  { slug: 'email-marketing', weight: 3, words: ['email marketing', 'newsletter', 'newsletters', 'email campaign', 'email campaigns', 'drip', 'mailchimp', 'email sequence', 'email sequences', 'cold email', 'campayn'] },

  // design
  { slug: 'design', weight: 3, words: ['design system', 'design systems', 'ui design', 'ux', 'ui/ux', 'user experience', 'visual design', 'graphic design', 'figma', 'wireframe', 'wireframes', 'mockup', 'mockups', 'typography', 'font', 'fonts', 'color', 'colors', 'palette', 'palettes', 'poster', 'posters', 'art', 'artwork', 'generative art', 'algorithmic art', 'illustration', 'illustrations', 'icon', 'icons', 'logo', 'logos', 'gif', 'gifs', 'animation', 'animations', 'theme', 'themes', 'aesthetic', 'canvas', 'visual', 'visuals', 'brand guidelines', 'style guide', 'slide design', '3d'] },
  { slug: 'design', weight: 3, words: ['image', 'images', 'photo', 'photos', 'video', 'videos'], notIn: SCIENCE },
  { slug: 'design', weight: 1, words: ['design', 'designs', 'creative', 'style'] },

  // legal
  { slug: 'legal', weight: 3, words: ['legal', 'law', 'lawyer', 'contract', 'contracts', 'agreement', 'agreements', 'nda', 'terms of service', 'privacy policy', 'gdpr', 'litigation', 'clause', 'clauses', 'legally', 'intellectual property', 'trademark', 'patent', 'patents'] },
  { slug: 'legal', weight: 2, words: ['regulatory', 'policy', 'policies'] },

  // finance
  { slug: 'finance', weight: 3, words: ['finance', 'financial', 'accounting', 'bookkeeping', 'invoice', 'invoices', 'invoicing', 'tax', 'taxes', 'payment', 'payments', 'stripe', 'billing', 'trading', 'trader', 'investment', 'investing', 'valuation', 'revenue', 'fiscal', 'treasury', 'interest rate', 'interest rates', 'value at risk', 'sharpe', 'quantitative trading', 'cryptocurrency', 'expense', 'expenses', 'unit economics', 'fundraising'] },
  { slug: 'finance', weight: 2, words: ['budget', 'budgets', 'budgeting', 'portfolio', 'stock', 'stocks', 'cash', 'crypto', 'debt'] },

  // hr
  { slug: 'hr', weight: 3, words: ['hr', 'human resources', 'hiring', 'recruiting', 'recruiter', 'recruitment', 'employee', 'employees', 'employment', 'offer letter', 'offer letters', 'resumes', 'job description', 'job descriptions', 'performance review', 'performance reviews', 'payroll'] },
  { slug: 'hr', weight: 2, words: ['interview', 'interviews', 'candidate', 'candidates', 'onboarding', 'talent'] },
  { slug: 'hr', weight: 1, words: ['resume'] },

  // education
  { slug: 'education', weight: 3, words: ['education', 'educational', 'teaching', 'teacher', 'tutor', 'tutoring', 'lesson', 'lessons', 'courses', 'curriculum', 'student', 'students', 'quiz', 'quizzes', 'learner', 'learners', 'flashcard', 'flashcards', 'classroom'] },
  { slug: 'education', weight: 2, words: ['teach', 'teaches', 'tutorial', 'tutorials'] },
  { slug: 'education', weight: 1, words: ['explain', 'explaining', 'explanation', 'explanations'] },

  // writing
  { slug: 'writing', weight: 3, words: ['writing', 'writer', 'documentation', 'docx', 'word document', 'word documents', 'article', 'articles', 'blog', 'blog post', 'blog posts', 'essay', 'essays', 'prose', 'editing', 'proofreading', 'grammar', 'manuscript', 'manuscripts', 'co-authoring', 'storytelling', 'latex'] },
  { slug: 'writing', weight: 2, words: ['write', 'written', 'document', 'documents', 'content', 'outline', 'outlines', 'draft', 'drafting', 'communication', 'communications', 'report', 'reports', 'story'] },
  { slug: 'technical-writing', weight: 3, words: ['technical writing', 'documentation', 'api documentation', 'readme', 'technical spec', 'technical specs', 'changelog', 'release notes', 'postmortem', 'postmortems', 'runbook', 'runbooks', 'adr', 'architecture decision', 'docstring', 'docstrings', 'code documentation', 'code explanation'] },
  { slug: 'copywriting', weight: 3, words: ['copywriting', 'headline', 'headlines', 'ad copy', 'tagline', 'slogan', 'call to action', 'product description', 'sales copy', 'marketing copy'] },

  // sales
  { slug: 'sales', weight: 3, words: ['sales', 'crm', 'lead generation', 'sales leads', 'prospect', 'prospects', 'prospecting', 'outreach', 'salesforce', 'hubspot', 'pipedrive', 'customer acquisition', 'b2b', 'email finder', 'e-commerce', 'ecommerce', 'shopify', 'checkout'] },

  // support
  { slug: 'support', weight: 3, words: ['customer support', 'support ticket', 'support tickets', 'helpdesk', 'help desk', 'help center', 'zendesk', 'intercom', 'freshdesk', 'ticket triage', 'customer service', 'live chat', 'faq', 'faqs', 'customer success'] },

  // management
  { slug: 'management', weight: 3, words: ['project management', 'product management', 'roadmap', 'roadmaps', 'meeting', 'meetings', 'agenda', 'agendas', 'stakeholder', 'stakeholders', 'okr', 'okrs', 'leadership', 'jira', 'asana', 'trello', 'clickup', 'sprint', 'sprints', 'backlog', 'prd', 'prds', 'retrospective', 'status report', 'status reports', 'status update', 'status updates', 'kanban', 'scrum', 'agile', 'delegation', 'startup', 'startups'] },
  { slug: 'management', weight: 3, words: ['linear'], notIn: SCIENCE },
  { slug: 'management', weight: 2, words: ['planning', 'plan', 'plans', 'team', 'teams', 'business', 'strategy'] },
  { slug: 'management', weight: 1, words: ['management', 'manager', 'managers', 'issue', 'issues', 'ticket', 'tickets', 'task', 'tasks', 'decision', 'decisions'] },

  // productivity
  { slug: 'productivity', weight: 3, words: ['productivity', 'workflow automation', 'notion', 'obsidian', 'note-taking', 'calendar', 'gmail', 'outlook', 'inbox', 'slack', 'todo', 'to-do', 'reminder', 'reminders', 'pdf', 'pdfs', 'pptx', 'powerpoint', 'presentation', 'presentations', 'slide deck', 'slide decks', 'google docs', 'google sheets', 'google drive', 'dropbox', 'zapier', 'rube', 'composio', 'time management', 'knowledge base', 'wiki', 'organize', 'organizing', 'organizes'] },
  { slug: 'productivity', weight: 2, words: ['note', 'notes', 'email', 'emails', 'file', 'files', 'folder', 'folders', 'slide', 'slides', 'spreadsheet', 'schedule', 'scheduling', 'brainstorm', 'brainstorming', 'web search', 'convert', 'print', 'printing', 'personal'] },
  { slug: 'productivity', weight: 1, words: ['automate', 'automation', 'automating', 'workflow', 'workflows', 'tool', 'tools', 'template', 'templates'] },

  // research
  { slug: 'research', weight: 3, words: ['research', 'researcher', 'researchers', 'literature', 'literature review', 'paper', 'papers', 'citation', 'citations', 'academic', 'scholar', 'scholarly', 'publication', 'publications', 'journal', 'journals', 'peer review', 'systematic review', 'meta-analysis', 'hypothesis', 'hypotheses', 'experiment', 'experiments', 'experimental', 'pubmed', 'arxiv', 'biorxiv', 'semantic scholar', 'zotero', 'deep research', 'research synthesis', 'market research', 'scientific'] },
  { slug: 'research', weight: 2, words: ['evidence', 'survey', 'investigate', 'investigation', 'findings', 'grant', 'grants'] },

  // science
  { slug: 'science', weight: 3, words: ['science', 'scientific', 'scientist', 'scientists', 'physics', 'quantum', 'astronomy', 'astrophysics', 'materials science', 'crystal', 'crystals', 'biology', 'biological', 'neuroscience', 'ecology', 'climate', 'geoscience', 'earth science', 'laboratory', 'microscopy', 'spectrometry', 'mass spectrometry', 'differential equation', 'differential equations', 'symbolic math', 'mathematics', 'mathematical', 'matlab', 'octave', 'sympy', 'phylogenetic', 'phylogenetics', 'evolutionary biology'] },
  { slug: 'science', weight: 2, words: ['simulation', 'simulations', 'numerical', 'computational', 'lab'] },
  { slug: 'bioinformatics', weight: 3, words: ['bioinformatics', 'genomic', 'genomics', 'genome', 'genomes', 'gene', 'genes', 'gene expression', 'dna', 'rna', 'rna-seq', 'scrna-seq', 'single-cell', 'single cell', 'sequencing', 'protein', 'proteins', 'proteomics', 'transcriptomics', 'vcf', 'bam', 'fasta', 'fastq', 'uniprot', 'kegg', 'ensembl', 'ncbi', 'blast', 'biomedical', 'glycosylation', 'omics', 'multi-omics', 'biopython', 'scanpy', 'anndata', 'chromatin', 'epigenomics', 'microbiome', 'cytometry', 'cell biology', 'cell type', 'cell types'] },
  { slug: 'chemistry', weight: 3, words: ['chemistry', 'chemical', 'chemicals', 'cheminformatics', 'molecule', 'molecules', 'molecular', 'smiles', 'rdkit', 'chemical compound', 'chemical compounds', 'ligand', 'ligands', 'docking', 'drug discovery', 'drug design', 'medicinal chemistry', 'chemical reaction', 'chemical reactions', 'materials science', 'crystal structure', 'crystal structures', 'dft', 'molecular dynamics', 'chembl', 'pubchem', 'glycoengineering'] },
  { slug: 'medicine', weight: 3, words: ['medicine', 'medical', 'clinical', 'clinician', 'clinicians', 'patient', 'patients', 'healthcare', 'public health', 'mental health', 'hospital', 'medical diagnosis', 'treatment', 'treatments', 'therapy', 'therapeutic', 'disease', 'diseases', 'dicom', 'mri', 'radiology', 'pathology', 'ehr', 'fhir', 'drug', 'drugs', 'pharmacology', 'epidemiology', 'clinical trial', 'clinical trials', 'medical imaging', 'iso 13485', 'medical device'] },
];

/**
 * Labels repositories give (marketplace `category`/`tags`/`keywords`, front matter
 * `metadata.category`/`tags`, a catalog's `category`) → slug. A slug of categories.json is taken as
 * itself; a label not here and not a slug says nothing.
 */
export const LABELS: Readonly<Record<string, string>> = {
  languages: 'development', language: 'development', development: 'development', coding: 'development', code: 'development',
  modernization: 'refactoring', refactoring: 'refactoring', git: 'git', tooling: 'development', 'developer-tools': 'development',
  utilities: 'development', framework: 'development', blockchain: 'development', gaming: 'development', 'game-development': 'development',
  workflows: 'productivity', workflow: 'productivity', utility: 'productivity', productivity: 'productivity', automation: 'productivity',
  'ai-ml': 'ai-ml', ai: 'ai-ml', ml: 'ai-ml', llm: 'llm', agents: 'agents', memory: 'ai-ml', 'machine-learning': 'ai-ml',
  security: 'security', appsec: 'appsec', compliance: 'compliance',
  marketing: 'marketing', seo: 'seo', 'business-marketing': 'marketing', documentation: 'technical-writing', docs: 'technical-writing',
  writing: 'writing', content: 'writing', infrastructure: 'devops', operations: 'devops', devops: 'devops', 'ci-cd': 'ci-cd',
  observability: 'monitoring', monitoring: 'monitoring', management: 'management', 'project-management': 'management',
  quality: 'development', testing: 'testing', qa: 'testing', creative: 'design', design: 'design', ui: 'design', ux: 'design',
  data: 'data', analytics: 'analytics', 'data-science': 'data', performance: 'backend', backend: 'backend', database: 'database',
  databases: 'database', api: 'api', apis: 'api', finance: 'finance', payments: 'finance', accounting: 'finance',
  frontend: 'frontend', web: 'frontend', accessibility: 'accessibility', mobile: 'mobile', ios: 'mobile', android: 'mobile',
  cloud: 'cloud', aws: 'cloud', azure: 'cloud', gcp: 'cloud', education: 'education', learning: 'education', teaching: 'education',
  research: 'research', sales: 'sales', crm: 'sales', 'e-commerce': 'sales', 'sales-intelligence': 'sales', 'email-outreach': 'sales',
  support: 'support', 'customer-support': 'support', hr: 'hr', recruiting: 'hr', legal: 'legal',
  'document-processing': 'productivity', documents: 'productivity', office: 'productivity',
  science: 'science', scientific: 'science', bioinformatics: 'bioinformatics', chemistry: 'chemistry', medicine: 'medicine',
};

/**
 * Labels that say little on their own (a shelf a marketplace files many kinds of plugins under):
 * they count as a hint (weight 2) that the skill's own words must confirm, where other labels
 * decide (weight 3). `business`, `governance` and `general` map to nothing.
 */
export const WEAK_LABELS: ReadonlySet<string> = new Set([
  'languages', 'language', 'development', 'utilities', 'utility', 'workflows', 'workflow', 'quality', 'performance', 'operations',
  'infrastructure', 'creative', 'content', 'web', 'memory', 'automation', 'framework', 'documentation', 'data', 'tooling', 'code', 'coding',
]);
