/** The help text of each command, with examples. */
export const HELP: Record<string, string> = {
  main: `service-sim: a deterministic simulator of a payments and usage-billing service, on a virtual clock.

Usage: service-sim <command> [options]

Commands:
  replay [file]     Run a scenario, print its virtual-time timeline, write its report
  fuzz              Run a scenario under many seeds; save failing seeds as replayable scenarios
  merge <files...>  Merge fuzz shard reports into one
  serve             Serve the simulator over HTTP on 127.0.0.1, with an admin API under /__sim/
  open <file|dir>   Step through a property's counterexample in the dashboard, to its violation
  scenarios         List the bundled scenarios (replay and fuzz take them by name)
  trigger <type>    Cause an event on a running serve by the API calls that make it

Run 'service-sim <command> --help' for the options of a command.

Examples:
  service-sim replay usage-to-invoice
  service-sim fuzz --scenario scenarios/receiver-down-two-days.yaml --runs 200 --workers 2
  service-sim serve --port 12111 --seed 42
`,
  replay: `Usage: service-sim replay [file|name] [--seed N] [--header-prefix P] [--client module] [--out dir] [--quiet]
       service-sim replay --served <record> [--quiet]

Runs a scenario file (YAML or JSON) against a fresh simulator, prints a compact timeline in
virtual time, and writes report.json, report.md and report.html to <dir>/<scenario>/<seed>/.
Without a file, replays the bundled default scenario. A bundled scenario is also reached by its
name (usage-to-invoice) or as scenarios/<name>.yaml when no such local file exists; 'service-sim
scenarios' lists them.

Options:
  --seed N          Seed (an integer) instead of the scenario's own
  --header-prefix P Header prefix instead of the scenario's header_prefix: Stripe or Service
  --client module   Your client module (actions and/or receiver; reporter and/or webhook for a
                    property-harness counterexample). A .ts/.mts module loads directly through
                    tsx (optional: npm i -D tsx), with no build and no package.json beside it.
                    Default: the reference client
  --out dir         Report root directory (default: .service-sim/reports); -o dir, --report dir
                    report.html's chart needs the optional package vega (npm i -D vega)
  --no-report       Do not write a report
  --quiet           Print only the result line
  --served record   Replay a session recorded by 'serve --record' (see below)
  -h, --help        This help

A served session (serve --record file) replays into a fresh simulator built from the record's
first line (seed, start, header prefix, limits, --forward-to destinations) on a manual clock moved
to each request's recorded arrival; every request is sent again and webhook posts that left the
process get the recorded answer at the recorded virtual time. It prints whether every answer
(status and body; status only for /__sim/ calls) and the trace hash are the recorded ones, and
names the first divergence (exit 1).

A counterexample file written by the property harness (client actions report_usage, emit_event,
roll_secret) is replayed by the harness's own runner, to the trace hash of the failing run.

Exit codes: 0 every expectation holds, 1 an expectation was violated (named), 2 usage or scenario
error (an unknown checker name is one).

Examples:
  service-sim replay scenarios/secret-roll.yaml
  service-sim replay reports/counterexamples/no-dedup-1234.json
  service-sim replay lock-contention --seed 7 --out out/
  service-sim replay my-scenario.yaml --client ./src/my-billing-client.ts --quiet
  service-sim replay --served session.jsonl
`,
  fuzz: `Usage: service-sim fuzz [--scenario file] [--runs N | --time budget] [--seed N] [--header-prefix P] [--workers N] [--shard i/n]

Replays a scenario under consecutive seeds starting at --seed. Seeds that violate an expectation are
saved as replayable scenario files under .service-sim/failures/ and are re-run first next time.
A progress bar is drawn on a terminal; plain lines otherwise (CI). The campaign report is written to
<out>/fuzz/<scenario>/<shard>.json, ready for 'service-sim merge'.

Options:
  --scenario file   Scenario to fuzz, a file or a bundled name (default: the bundled default)
  --runs N          Number of seeds (default 100)
  --time budget     Wall-clock budget instead of --runs, e.g. 30s, 5m
  --seed N          First seed (default 1)
  --header-prefix P Stripe or Service instead of the scenario's header_prefix (saved with failing seeds)
  --workers N       Worker threads (tinypool); default 1 (in process)
  --shard i/n       Run only seeds whose index is i-1 modulo n (CI matrix)
  --client module   Client module, as for replay
  --out dir         Report root directory (default: .service-sim/reports); --report dir
  --failures dir    Where failing seeds are saved (default: .service-sim/failures)
  -h, --help        This help

Exit codes: 0 no failing seed, 1 some seed failed, 2 usage or scenario error.

Examples:
  service-sim fuzz --scenario scenarios/duplicates-and-reordering.yaml --runs 500 --workers 2
  service-sim fuzz --time 2m --shard 1/4
`,
  merge: `Usage: service-sim merge <report.json...> [--out file]

Merges fuzz reports (e.g. one per CI shard) into one: runs, failures and seeds combined.

Options:
  --out file   Where to write the merged report (default: print it)
  -h, --help   This help

Example:
  service-sim merge .service-sim/reports/fuzz/default/shard-1-of-2.json .service-sim/reports/fuzz/default/shard-2-of-2.json --out merged.json
`,
  trigger: `Usage: service-sim trigger <event type> [--url http://127.0.0.1:12111] [--admin-token T]
                                        [--env-file .env] [--account acct_...]
       service-sim trigger --list

Against a running 'service-sim serve', causes an event by the API calls that make it, as the
provider's CLI trigger does: payment_intent.succeeded creates and confirms a payment intent,
customer.subscription.created a customer, a price and a subscription, invoice.paid an invoice
item, an invoice, its finalization and payment, payment_intent.payment_failed a payment with a
declined card. The event names a stored object in the state it says, and is delivered to the
forwarding destinations as any event. Prints the requests made and the event.

checkout.session.completed makes a checkout session and completes it as the customer would
(sim.customer.completeCheckout); checkout.session.async_payment_failed completes one with the
failing test bank account, whose debit fails on the clock. Types without a recipe get a
generated event (said so).

The serve to call and its admin token come from --url and --admin-token, else the variables
SERVICE_SIM_URL and SERVICE_SIM_ADMIN_TOKEN, else the env file 'serve --env-file' wrote (both
variables are in it): --env-file PATH, or ./.env when there is one.

Options:
  --url URL           The serve to call (default SERVICE_SIM_URL, else http://127.0.0.1:12111)
  --admin-token T     Its admin token (default SERVICE_SIM_ADMIN_TOKEN)
  --env-file PATH     Read SERVICE_SIM_URL and SERVICE_SIM_ADMIN_TOKEN from PATH (default ./.env)
  --account acct_...  Make the calls on a connected account
  --list              The event types with a recipe
  -h, --help          This help
`,
  serve: `Usage: service-sim serve [--port P] [--seed N] [--scenario file] [--no-limits]
                         [--header-prefix Stripe|Service] [--api-version V] [--clock wall|manual] [--speed N]
                         [--forward-to URL] [--events a,b] [--forward-thin-to URL]
                         [--thin-events a,b] [--forward-connect-to URL] [--env-file .env]
                         [--fixtures file.json]... [--state file] [--record file]
                         [--admin-token T|none] [--allowed-host H]...

Serves the simulator's fetch handler over HTTP on 127.0.0.1 so clients in any language can be
tested, plus an admin API under /__sim/ (OpenAPI 3.1: docs/admin-api.openapi.yaml):
  GET  /__sim/state               virtual now, clock, header prefix, keys, accounts, forwarding
  POST /__sim/accounts            {"email"?, "country"?} -> a connected account
  POST /__sim/organisations       {"accounts": [ids]}
  POST /__sim/meters              {"event_name", "formula"?, ...} -> a meter
  GET  /__sim/meters/summary      ?meter=&customer= -> processed usage (aggregate)
  POST /__sim/clock/advance       {"ms": 900000} or {"duration": "15m"}: time travel
  POST /__sim/settle              run work due now
  GET  /__sim/events              every event emitted
  POST /__sim/events/trigger      {"type": "invoice.paid", "account"?, "object"?} -> an event
  GET  /__sim/deliveries          ?event=&destination=&status= -> deliveries, every attempt, next one
  POST /__sim/deliveries/resend   {"event", "destination", "via"?}
  GET  /__sim/destinations        destinations and their signing secrets
  GET  /__sim/faults              rates in force, what fired
  POST /__sim/faults/inject       {"fault": "lock_timeout", "count"?, ...}: one fault now
  POST /__sim/faults/rates        {"rates": {"rate_limit": 1}}: switch kinds on (0: off)
  POST /__sim/faults/clear        every rate off, nothing armed
  POST /__sim/reset               a fresh simulator from the same options (same token and port)
  POST /__sim/snapshot            the simulator's snapshot as JSON (with --state: also written to the file)
  GET  /__sim/trace               the trace as JSON lines; ?since=<seq>
With --scenario, the scenario's setup and workload run first. Stops cleanly on SIGINT.

Dashboard: /__dashboard in a browser shows the requests, events and deliveries (every attempt, the
endpoint's answer, the next retry, a resend), live. Open the link the banner prints: it carries the
token, which the page keeps in a cookie; the token, Host and Origin checks apply (docs/dashboard.md).

State: with --state file, serve loads the file at start when it exists (the saved run goes on: its
seed, limits, header prefix, objects, pending work and virtual time; --seed, --scenario,
--no-limits and --header-prefix then do not apply), writes it on POST /__sim/snapshot and on exit
(SIGINT/SIGTERM), each time atomically (a temporary file, then a rename). With --clock wall the
loaded simulator starts at the saved virtual time and follows the wall clock from there (the time
the server was stopped does not pass). POST /__sim/reset starts over from the options, not the file.

Time: with --clock wall (the default) virtual time starts at the real current time and follows it
(--speed N: N times faster), so deliveries and retries, meter processing, session and idempotency
expiry fall due by themselves and signatures pass a real app's 300 s tolerance; time travel jumps
ahead and stays ahead. --clock manual keeps a fixed start that only the admin API moves
(deterministic runs). Each served request is traced (serve.request: wall and virtual arrival).
With --record file, every accepted request (virtual arrival, method, target, headers, body, the
answer), every webhook answer from outside the process, and on exit the trace hash are written to
file as JSON lines: 'service-sim replay --served file' replays the session and checks it.

Protection (the admin API hands out every key and can move time, so a web page must not reach it):
  - The admin API needs a token: 'Authorization: Bearer <token>' or 'X-Sim-Admin-Token: <token>'
    (401 otherwise). A fresh one is printed at start; fix one with --admin-token or
    SERVICE_SIM_ADMIN_TOKEN, or turn it off with --admin-token none (trusted local scripts).
  - Admin writes take 'Content-Type: application/json' only (415 otherwise).
  - Every request (service API too) must name localhost, 127.0.0.1 or [::1] (any port) in Host,
    or a host given with --allowed-host (403 otherwise: DNS rebinding); an Origin header must
    name one of them too (403 otherwise).
  - Malformed requests get 400 in the JSON error envelope; an absolute-form target
    (GET http://127.0.0.1:12111/v1/...) is served from its path, its authority checked as Host.
  - Timeouts: headers 10 s (then 408), whole request 30 s, idle keep-alive 5 s; bodies over 1 MiB
    get 413 and headers over 16 KiB get 431.

Options:
  --port P            Port (default 12111; 0 picks a free one)
  --seed N            Seed (default 0, or the scenario's)
  --scenario file     Scenario to run before serving
  --no-limits         No rate, concurrency or read limits and no object locks (load tests: the
                      sandbox allows 25 requests per virtual second, and with --clock manual a
                      virtual second never ends)
  --header-prefix P   Stripe (default: the official clients' names, so a client of any language
                      works unchanged, its webhook signatures included) or Service (the seed's
                      names: Service-Signature, Service-Account...); either way the scoped
                      headers of the other prefix are honoured too
  --api-version V     The accounts' default API version (default the current one), for clients
                      that send none; any served version from 2020-08-27 on (docs/versions.md)
  --clock wall|manual Virtual time follows the wall clock (default) or moves only when asked
  --speed N           With --clock wall: N virtual ms per real ms (default 1, at most 1000000)
  --forward-to URL    Forward snapshot events (of the platform and, unless --forward-connect-to
                      takes them, of its connected accounts) to URL, a localhost/127.0.0.1/[::1]
                      address: one destination (test mode), one signing secret, printed
  --events a,b        With --forward-to: only these snapshot event types (default all: *)
  --forward-thin-to URL   Forward thin events (v1.billing.meter...) to URL: their own
                      destination and secret
  --thin-events a,b   With --forward-thin-to: only these thin event types (default all: *)
  --forward-connect-to URL  Forward connected accounts' snapshot events to URL instead
  --env-file PATH     Write STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET
                      (--forward-to's), SERVICE_SIM_URL and SERVICE_SIM_ADMIN_TOKEN (which
                      'service-sim trigger' reads) into PATH, keeping its other lines (on
                      Node 20 the file must exist: node itself reads an --env-file argument)
  --fixtures file     Run a fixture file (the provider CLI's format: _meta, fixtures[] with
                      name, path, method, params, \${name:path} references) at start (repeatable)
  --state file        Load the simulator from file at start if it exists; save it there on exit
                      and on POST /__sim/snapshot (atomically)
  --record file       Record the session (JSON lines) for 'service-sim replay --served file';
                      not with --scenario or --state (a record starts from a fresh simulator)
  --counterexamples dir
                      The dashboard's Counterexample page steps through the counterexample
                      files of dir (a property's scenarioDir), the newest first
  --admin-token T     Admin API token (default: SERVICE_SIM_ADMIN_TOKEN, else a random one,
                      printed); 'none' turns the token off
  --allowed-host H    Also accept host name H in Host and Origin (repeatable), e.g. a name
                      your containers use for this machine through a proxy
  -h, --help          This help

Examples:
  service-sim serve --port 12111 --seed 42
  service-sim serve --forward-to http://localhost:4242/webhook --env-file .env
  service-sim serve --header-prefix Service   # the seed's header names
  service-sim serve --clock manual --seed 7
  service-sim serve --speed 60   # an hour of virtual time a minute
  service-sim serve --clock manual --state sim-state.json   # stop and start again where it was
  service-sim serve --record session.jsonl   # then: service-sim replay --served session.jsonl
  curl -u sk_test_...: http://127.0.0.1:12111/v1/account
  curl -H "Authorization: Bearer $SERVICE_SIM_ADMIN_TOKEN" http://127.0.0.1:12111/__sim/state
  curl -H "Authorization: Bearer $SERVICE_SIM_ADMIN_TOKEN" -H 'Content-Type: application/json' \\
       -d '{"duration":"15m"}' http://127.0.0.1:12111/__sim/clock/advance
  SERVICE_SIM_ADMIN_TOKEN=dev-token service-sim serve
  service-sim serve --admin-token none
`,
  open: `Usage: service-sim open <file|dir> [--port N] [--admin-token T] [--allowed-host H] [--client module]

Serves the dashboard's step-through of a property-harness counterexample (the scenario file a
failing check writes to its scenarioDir) on 127.0.0.1 until Ctrl-C, and prints its link. Given a
directory, it lists every counterexample in it and opens the newest. The file holds the program,
seed and faults only: opening it replays it (to the trace hash it recorded) and shows each step,
the requests the app made, each event's deliveries with the app's answers, the faults, and the
violation with the trace entries that witness it, as a sequence of provider and app.

The page is read-only and needs the token, as serve's dashboard: the printed link carries a
generated one (it sets a cookie and leaves the address bar).

Options:
  --port N              Port on 127.0.0.1 (default: a free one)
  --admin-token T       The token the page needs (default: SERVICE_SIM_ADMIN_TOKEN, else a
                        random one); 'none' for no token
  --allowed-host H      Also accept this host name in Host and Origin (repeatable)
  --client module       The subject module, for a counterexample found against your own code
                        (as for replay)
  -h, --help            This help

Keys on the page: n or the right arrow for the next step, p or the left arrow for the previous
one, v for the violation.

Examples:
  service-sim open .service-sim/counterexamples/no-dedup-1234.json
  service-sim open .service-sim/counterexamples
  service-sim open counterexample.json --client ./my-webhooks.ts
`,
  scenarios: `Usage: service-sim scenarios

Lists the scenarios bundled with the package: the name replay and fuzz --scenario take, and the
first sentence of each description. A local file of the same name wins over a bundled one.

Options:
  -h, --help   This help

Examples:
  service-sim scenarios
  service-sim replay usage-to-invoice
  service-sim fuzz --scenario receiver-down-two-days --runs 50
`,
}
