import { reply } from '../reply';
import { command, errors, parseInteger, type CommandContext, type CommandSpec } from './shared';

/** Connection state and server facts: SELECT, CLIENT SETNAME/GETNAME/ID, INFO (Redis 7.0). */

/** SELECT index: 0-15; a script's SELECT stays inside the script. */
const select = command(2, false, (ctx, [, indexText]) => {
  const index = parseInteger(indexText);
  if (index === null) return errors.notInteger();
  // getIntFromObjectOrReply: a C int.
  if (index < -(2n ** 31n) || index >= 2n ** 31n) return reply.error('ERR value is out of range, value must between -2147483648 and 2147483647');
  if (ctx.session.clusterMode && index !== 0n) return reply.error('ERR SELECT is not allowed in cluster mode');
  if (index < 0n || index >= BigInt(ctx.session.databaseCount)) return reply.error('ERR DB index is out of range');
  ctx.session.select(Number(index));
  return reply.ok();
});

/** The CLIENT subcommands Lockstep offers, with their Redis 7.0 arity (COMMAND INFO's client|...). */
const CLIENT_SUBCOMMAND_ARITY: Readonly<Record<string, number>> = { setname: 3, getname: 2, id: 2 };

/**
 * What Redis's processCommand refuses before CLIENT runs: a subcommand it does not know (Lockstep
 * knows three of CLIENT's twenty) and a subcommand's wrong number of arguments.
 */
function refuseClient(args: readonly string[]): string | null {
  const sub = args[1].toLowerCase();
  if (!Object.hasOwn(CLIENT_SUBCOMMAND_ARITY, sub)) return `ERR unknown subcommand '${args[1]}'. Try CLIENT HELP.`;
  if (args.length !== CLIENT_SUBCOMMAND_ARITY[sub]) return `ERR wrong number of arguments for 'client|${sub}' command`;
  return null;
}

/**
 * CLIENT SETNAME name (printable ASCII without spaces; "" removes the name), GETNAME, ID. Redis
 * numbers a connection when it connects; a Lockstep connection exists from its first command, so
 * it is numbered the first time it asks CLIENT ID: numbers still grow, in the order connections ask.
 */
const client = {
  ...command(-2, false, (ctx: CommandContext, args: readonly string[]) => {
    const connection = ctx.session.client;
    switch (args[1].toLowerCase()) {
      case 'setname': {
        const name = args[2];
        for (let i = 0; i < name.length; i++) {
          const code = name.charCodeAt(i);
          if (code < 0x21 || code > 0x7e) return reply.error('ERR Client names cannot contain spaces, newlines or special characters.');
        }
        connection.name = name === '' ? null : name;
        return reply.ok();
      }
      case 'getname':
        return connection.name === null ? reply.nil() : reply.bulk(connection.name);
      default:
        connection.clientId ??= ctx.session.nextClientId();
        return reply.integer(connection.clientId);
    }
  }),
  refuse: refuseClient,
};

/** INFO's sections as Lockstep fills them; the field names are Redis 7.0's. */
function infoSections(ctx: CommandContext): Record<string, string[]> {
  const uptimeSeconds = Math.floor(ctx.nowMs / 1000);
  return {
    server: [
      'redis_version:7.0.15',
      `redis_mode:${ctx.session.clusterMode ? 'cluster' : 'standalone'}`,
      'os:Lockstep simulated server',
      'arch_bits:64',
      'process_id:1',
      'tcp_port:6379',
      `uptime_in_seconds:${uptimeSeconds}`,
      `uptime_in_days:${Math.floor(uptimeSeconds / 86400)}`,
      'hz:10',
      'configured_hz:10',
    ],
    clients: ['blocked_clients:0'],
    persistence: ['loading:0', 'async_loading:0', 'rdb_bgsave_in_progress:0', 'aof_enabled:0', 'aof_rewrite_in_progress:0'],
    replication: ['role:master', 'connected_slaves:0'],
    cluster: [`cluster_enabled:${ctx.session.clusterMode ? 1 : 0}`],
    keyspace: ctx.session.databaseSizes(ctx.nowMs).map(({ db, keys, expires }) => `db${db}:keys=${keys},expires=${expires},avg_ttl=0`),
  };
}

const SECTION_TITLES: Readonly<Record<string, string>> = {
  server: 'Server',
  clients: 'Clients',
  persistence: 'Persistence',
  replication: 'Replication',
  cluster: 'Cluster',
  keyspace: 'Keyspace',
};

/**
 * INFO [section ...]: a bulk of "# Title\r\nfield:value\r\n" sections, blank lines between them,
 * as genRedisInfoString writes it; loading:0 is what a client's ready check (ioredis) waits for.
 * Unknown sections are left out; no known section gives an empty bulk.
 */
const info = command(-1, false, (ctx, args) => {
  const sections = infoSections(ctx);
  const asked = args.slice(1).map((a) => a.toLowerCase());
  const everything = asked.length === 0 || asked.some((a) => a === 'default' || a === 'all' || a === 'everything');
  const names = Object.keys(SECTION_TITLES).filter((name) => everything || asked.includes(name));
  const text = names.map((name) => `# ${SECTION_TITLES[name]}\r\n${sections[name].map((line) => `${line}\r\n`).join('')}`).join('\r\n');
  return reply.bulk(text);
});

export const CLIENT_COMMANDS: Record<string, CommandSpec> = { select, client, info };
