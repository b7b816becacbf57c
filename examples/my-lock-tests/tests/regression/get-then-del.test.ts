// Regression test exported from Lockstep: "GET then DEL: releasing someone else's lock", variant get-then-del, seed 1.
// It replays the run headlessly with the Node API and asserts the same violations at the same steps.
// The scenario is inlined as a definition (docs/scenario-definition.schema.json); regenerate the
// file from the page (Workbench, Import / export) rather than editing the expectation by hand.
import { expect, it } from 'vitest';
import { simulate } from 'lockstep';

const definition = {
  "version": 1,
  "id": "get-then-del",
  "title": {
    "en": "GET then DEL: releasing someone else's lock",
    "zh": "GET 后 DEL：误删他人的锁"
  },
  "summary": {
    "en": "Check-then-delete is two commands; a pause between them deletes the next holder's lock.",
    "zh": "先检查再删除是两条命令；两者之间的停顿会删掉下一个持有者的锁。"
  },
  "lesson": {
    "en": "Each client takes the lock with SET key token NX PX 5000 and, when done, releases it with GET, compare with its own token, then DEL. The compare is right when it runs, but GET and DEL are two separate commands: if A stalls between them (a GC pause, a slow network) for longer than the lease, Redis expires A's lock, B acquires it, and A's late DEL deletes B's lock. Now nobody is protected. The fix makes the check and the delete one atomic step: a Lua script that deletes only if the value is still the caller's token (Redis runs a script with no other command in between), or, from Redis 8.4, DELEX key IFEQ token. The script is the release redis-py's Lock runs. Like every lock in these lessons, redis-py's Lock lives on one Redis server: it is not Redlock, the multi-server algorithm described on the same Redis docs page, which redis-py does not implement.",
    "zh": "每个客户端用 SET key token NX PX 5000 加锁，完成后先 GET、与自己的 token 比较、再 DEL 来释放锁。比较在执行时是对的，但 GET 和 DEL 是两条独立的命令：如果 A 在两者之间停顿（GC 停顿、网络变慢）超过租期，Redis 会让 A 的锁过期，B 随即加锁成功，而 A 迟到的 DEL 删掉的是 B 的锁。此后谁都不再受保护。修复方法是把检查和删除变成一个原子步骤：用 Lua 脚本仅在值仍是调用者的 token 时才删除（Redis 执行脚本期间不会插入其他命令），或者在 Redis 8.4 及以上使用 DELEX key IFEQ token。redis-py 的 Lock 释放锁时运行的就是这个脚本。和这些课程里所有的锁一样，redis-py 的 Lock 只依赖一台 Redis 服务器：它不是 Redlock（Redis 文档同一页里介绍的多服务器算法），redis-py 也没有实现 Redlock。"
  },
  "params": {
    "lockKey": "lock",
    "ttlMs": "5000"
  },
  "lockKey": "lock",
  "scripts": {
    "compareAndDelete": {
      "source": "if redis.call(\"get\", KEYS[1]) == ARGV[1] then\n  return redis.call(\"del\", KEYS[1])\nelse\n  return 0\nend",
      "title": {
        "en": "Compare and delete",
        "zh": "比较并删除"
      }
    }
  },
  "defaultSchedule": "A A A~5000 +4000 B +1000",
  "narration": [
    {
      "step": 0,
      "text": {
        "en": "A runs SET lock <A's token> NX PX 5000 and gets OK: A holds the lock until t=5000 and starts 2 s of work.",
        "zh": "A 执行 SET lock <A 的 token> NX PX 5000，返回 OK：A 持有锁直到 t=5000，并开始 2 秒的业务处理。"
      }
    },
    {
      "step": 1,
      "text": {
        "en": "At t=2000 A's work is done. It GETs the lock: its own token, so A decides to DEL. The DEL is its next command.",
        "zh": "t=2000 时 A 的业务处理完成。它 GET 锁：是自己的 token，于是决定 DEL。DEL 是它的下一条命令。"
      }
    },
    {
      "step": 2,
      "text": {
        "en": "Right there a stop-the-world GC pause freezes A's process for 5 s: the schedule injects it, between the GET and the DEL.",
        "zh": "恰在此时，一次 STW GC 停顿把 A 的进程冻结了 5 秒：这是调度注入的故障，正好落在 GET 和 DEL 之间。"
      }
    },
    {
      "step": 3,
      "text": {
        "en": "Four seconds pass (t=6000). A's lease ended after t=5000 while A was frozen: Redis dropped the key.",
        "zh": "时间过去 4 秒（t=6000）。A 被冻结期间，租期在 t=5000 之后结束：Redis 删除了该键。"
      }
    },
    {
      "step": 4,
      "text": {
        "en": "B runs the same SET NX and gets OK: B now holds the lock, legitimately, and starts its work.",
        "zh": "B 执行同样的 SET NX，返回 OK：B 现在合法地持有锁，并开始业务处理。"
      }
    },
    {
      "step": 5,
      "text": {
        "en": "At t=7000 the pause ends and A sends the DEL it decided on 5 s ago. Watch the lock key: A deletes B's lock while B is still working.",
        "zh": "t=7000 时停顿结束，A 发出 5 秒前就决定好的 DEL。注意锁键：A 删除了 B 的锁，而 B 还在工作。"
      }
    }
  ],
  "variants": [
    {
      "id": "get-then-del",
      "title": {
        "en": "GET, compare, DEL",
        "zh": "GET、比较、DEL"
      },
      "summary": {
        "en": "Two commands: the check can be stale by the time DEL runs.",
        "zh": "两条命令：DEL 执行时，检查结果可能已经过时。"
      },
      "clients": [
        {
          "id": "A",
          "program": [
            {
              "op": "command",
              "label": "acquire",
              "note": {
                "en": "take the lock only if free, with a lease of ttlMs",
                "zh": "仅当锁空闲时加锁，租期 ttlMs"
              },
              "argv": [
                "SET",
                "${lockKey}",
                "${token}",
                "NX",
                "PX",
                "${ttlMs}"
              ],
              "saveAs": "acquired"
            },
            {
              "op": "if",
              "when": {
                "test": "notNil",
                "reply": "acquired"
              },
              "goto": "locked"
            },
            {
              "op": "retry",
              "goto": "acquire",
              "afterMs": 1000,
              "attemptCountMax": 5
            },
            {
              "op": "end"
            },
            {
              "op": "enter",
              "label": "locked"
            },
            {
              "op": "work",
              "note": {
                "en": "business logic",
                "zh": "业务逻辑"
              },
              "durationMs": 2000
            },
            {
              "op": "leave"
            },
            {
              "op": "command",
              "argv": [
                "GET",
                "${lockKey}"
              ],
              "saveAs": "current"
            },
            {
              "op": "if",
              "when": {
                "test": "ne",
                "left": "${current}",
                "right": "${token}"
              },
              "goto": "done"
            },
            {
              "op": "command",
              "note": {
                "en": "not atomic with the GET above",
                "zh": "与上面的 GET 不是原子操作"
              },
              "argv": [
                "DEL",
                "${lockKey}"
              ],
              "releases": true
            },
            {
              "op": "end",
              "label": "done"
            }
          ]
        },
        {
          "id": "B",
          "program": [
            {
              "op": "command",
              "label": "acquire",
              "note": {
                "en": "take the lock only if free, with a lease of ttlMs",
                "zh": "仅当锁空闲时加锁，租期 ttlMs"
              },
              "argv": [
                "SET",
                "${lockKey}",
                "${token}",
                "NX",
                "PX",
                "${ttlMs}"
              ],
              "saveAs": "acquired"
            },
            {
              "op": "if",
              "when": {
                "test": "notNil",
                "reply": "acquired"
              },
              "goto": "locked"
            },
            {
              "op": "retry",
              "goto": "acquire",
              "afterMs": 1000,
              "attemptCountMax": 5
            },
            {
              "op": "end"
            },
            {
              "op": "enter",
              "label": "locked"
            },
            {
              "op": "work",
              "note": {
                "en": "business logic",
                "zh": "业务逻辑"
              },
              "durationMs": 2000
            },
            {
              "op": "leave"
            },
            {
              "op": "command",
              "argv": [
                "GET",
                "${lockKey}"
              ],
              "saveAs": "current"
            },
            {
              "op": "if",
              "when": {
                "test": "ne",
                "left": "${current}",
                "right": "${token}"
              },
              "goto": "done"
            },
            {
              "op": "command",
              "note": {
                "en": "not atomic with the GET above",
                "zh": "与上面的 GET 不是原子操作"
              },
              "argv": [
                "DEL",
                "${lockKey}"
              ],
              "releases": true
            },
            {
              "op": "end",
              "label": "done"
            }
          ]
        }
      ],
      "expect": {
        "violations": [
          "foreign-release"
        ],
        "absent": [
          "mutual-exclusion",
          "lock-never-released"
        ]
      }
    },
    {
      "id": "lua",
      "title": {
        "en": "Lua compare-and-delete",
        "zh": "Lua 比较并删除"
      },
      "summary": {
        "en": "One atomic script: deletes only if the value is still my token.",
        "zh": "一个原子脚本：仅当值仍是我的 token 时才删除。"
      },
      "clients": [
        {
          "id": "A",
          "program": [
            {
              "op": "command",
              "label": "acquire",
              "note": {
                "en": "take the lock only if free, with a lease of ttlMs",
                "zh": "仅当锁空闲时加锁，租期 ttlMs"
              },
              "argv": [
                "SET",
                "${lockKey}",
                "${token}",
                "NX",
                "PX",
                "${ttlMs}"
              ],
              "saveAs": "acquired"
            },
            {
              "op": "if",
              "when": {
                "test": "notNil",
                "reply": "acquired"
              },
              "goto": "locked"
            },
            {
              "op": "retry",
              "goto": "acquire",
              "afterMs": 1000,
              "attemptCountMax": 5
            },
            {
              "op": "end"
            },
            {
              "op": "enter",
              "label": "locked"
            },
            {
              "op": "work",
              "note": {
                "en": "business logic",
                "zh": "业务逻辑"
              },
              "durationMs": 2000
            },
            {
              "op": "leave"
            },
            {
              "op": "eval",
              "script": "compareAndDelete",
              "keys": [
                "${lockKey}"
              ],
              "args": [
                "${token}"
              ],
              "saveAs": "released",
              "releases": true
            },
            {
              "op": "end"
            }
          ]
        },
        {
          "id": "B",
          "program": [
            {
              "op": "command",
              "label": "acquire",
              "note": {
                "en": "take the lock only if free, with a lease of ttlMs",
                "zh": "仅当锁空闲时加锁，租期 ttlMs"
              },
              "argv": [
                "SET",
                "${lockKey}",
                "${token}",
                "NX",
                "PX",
                "${ttlMs}"
              ],
              "saveAs": "acquired"
            },
            {
              "op": "if",
              "when": {
                "test": "notNil",
                "reply": "acquired"
              },
              "goto": "locked"
            },
            {
              "op": "retry",
              "goto": "acquire",
              "afterMs": 1000,
              "attemptCountMax": 5
            },
            {
              "op": "end"
            },
            {
              "op": "enter",
              "label": "locked"
            },
            {
              "op": "work",
              "note": {
                "en": "business logic",
                "zh": "业务逻辑"
              },
              "durationMs": 2000
            },
            {
              "op": "leave"
            },
            {
              "op": "eval",
              "script": "compareAndDelete",
              "keys": [
                "${lockKey}"
              ],
              "args": [
                "${token}"
              ],
              "saveAs": "released",
              "releases": true
            },
            {
              "op": "end"
            }
          ]
        }
      ],
      "narration": [
        {
          "step": 1,
          "text": {
            "en": "At t=2000 A's work is done and it releases with the compare-and-delete script: one atomic command. The value is its own token: the script deletes it and answers 1.",
            "zh": "t=2000 时 A 的业务处理完成，它用比较并删除脚本释放锁：一条原子命令。值是它自己的 token：脚本删除了它并返回 1。"
          }
        },
        {
          "step": 2,
          "text": {
            "en": "The same 5 s pause hits A, but A is done with the lock: between a check and a delete in one script there is no gap for a pause to fall into.",
            "zh": "同样的 5 秒停顿落到了 A 身上，但 A 已经用完了锁：检查和删除在同一个脚本里，中间没有可供停顿插入的空隙。"
          }
        },
        {
          "step": 3,
          "text": {
            "en": "Four seconds pass (t=6000). The lock has been free since A released it at t=2000.",
            "zh": "时间过去 4 秒（t=6000）。自从 A 在 t=2000 释放以来，锁一直是空闲的。"
          }
        },
        {
          "step": 5,
          "text": {
            "en": "At t=7000 A has nothing left to send: B keeps its lock. (A pause before the release, inside the critical section, is another story: see lease-expires-mid-work.)",
            "zh": "t=7000 时 A 已经没有要发送的命令：B 保住了它的锁。（停顿若发生在释放之前、临界区之内，就是另一回事了：见 lease-expires-mid-work。）"
          }
        }
      ],
      "expect": {
        "violations": [],
        "absent": [
          "foreign-release",
          "mutual-exclusion",
          "lock-never-released"
        ]
      }
    },
    {
      "id": "delex",
      "title": {
        "en": "DELEX key IFEQ token (Redis 8.4)",
        "zh": "DELEX key IFEQ token（Redis 8.4 新命令）"
      },
      "summary": {
        "en": "One built-in command compares and deletes atomically: no Lua needed.",
        "zh": "一条内置命令原子地比较并删除：不再需要 Lua。"
      },
      "clients": [
        {
          "id": "A",
          "program": [
            {
              "op": "command",
              "label": "acquire",
              "note": {
                "en": "take the lock only if free, with a lease of ttlMs",
                "zh": "仅当锁空闲时加锁，租期 ttlMs"
              },
              "argv": [
                "SET",
                "${lockKey}",
                "${token}",
                "NX",
                "PX",
                "${ttlMs}"
              ],
              "saveAs": "acquired"
            },
            {
              "op": "if",
              "when": {
                "test": "notNil",
                "reply": "acquired"
              },
              "goto": "locked"
            },
            {
              "op": "retry",
              "goto": "acquire",
              "afterMs": 1000,
              "attemptCountMax": 5
            },
            {
              "op": "end"
            },
            {
              "op": "enter",
              "label": "locked"
            },
            {
              "op": "work",
              "note": {
                "en": "business logic",
                "zh": "业务逻辑"
              },
              "durationMs": 2000
            },
            {
              "op": "leave"
            },
            {
              "op": "command",
              "argv": [
                "DELEX",
                "${lockKey}",
                "IFEQ",
                "${token}"
              ],
              "saveAs": "released",
              "releases": true
            },
            {
              "op": "end"
            }
          ]
        },
        {
          "id": "B",
          "program": [
            {
              "op": "command",
              "label": "acquire",
              "note": {
                "en": "take the lock only if free, with a lease of ttlMs",
                "zh": "仅当锁空闲时加锁，租期 ttlMs"
              },
              "argv": [
                "SET",
                "${lockKey}",
                "${token}",
                "NX",
                "PX",
                "${ttlMs}"
              ],
              "saveAs": "acquired"
            },
            {
              "op": "if",
              "when": {
                "test": "notNil",
                "reply": "acquired"
              },
              "goto": "locked"
            },
            {
              "op": "retry",
              "goto": "acquire",
              "afterMs": 1000,
              "attemptCountMax": 5
            },
            {
              "op": "end"
            },
            {
              "op": "enter",
              "label": "locked"
            },
            {
              "op": "work",
              "note": {
                "en": "business logic",
                "zh": "业务逻辑"
              },
              "durationMs": 2000
            },
            {
              "op": "leave"
            },
            {
              "op": "command",
              "argv": [
                "DELEX",
                "${lockKey}",
                "IFEQ",
                "${token}"
              ],
              "saveAs": "released",
              "releases": true
            },
            {
              "op": "end"
            }
          ]
        }
      ],
      "requiresRedis": "8.4",
      "narration": [
        {
          "step": 1,
          "text": {
            "en": "At t=2000 A's work is done and it sends DELEX lock IFEQ <A's token>: one built-in command compares and deletes. Redis answers 1.",
            "zh": "t=2000 时 A 的业务处理完成，它发出 DELEX lock IFEQ <A 的 token>：一条内置命令完成比较和删除。Redis 返回 1。"
          }
        },
        {
          "step": 2,
          "text": {
            "en": "The same 5 s pause hits A, but A is done with the lock: one command leaves no gap for a pause.",
            "zh": "同样的 5 秒停顿落到了 A 身上，但 A 已经用完了锁：一条命令不留任何可供停顿插入的空隙。"
          }
        },
        {
          "step": 3,
          "text": {
            "en": "Four seconds pass (t=6000). The lock has been free since A released it at t=2000.",
            "zh": "时间过去 4 秒（t=6000）。自从 A 在 t=2000 释放以来，锁一直是空闲的。"
          }
        },
        {
          "step": 5,
          "text": {
            "en": "At t=7000 A has nothing left to send: B keeps its lock.",
            "zh": "t=7000 时 A 已经没有要发送的命令：B 保住了它的锁。"
          }
        }
      ],
      "expect": {
        "violations": [],
        "absent": [
          "foreign-release",
          "mutual-exclusion",
          "lock-never-released"
        ]
      }
    }
  ],
  "defaultVariant": "get-then-del"
};

const run = { variant: "get-then-del", seed: 1, schedule: "A A A~5000 +4000 B +1000" };

/** The violations the run produced when it was exported: kind, and the schedule step (from 0). */
const expected = [
  ["foreign-release", 5],
];

it("GET then DEL: releasing someone else's lock (get-then-del, seed 1) replays with the same violation", async () => {
  const result = await simulate({ scenario: definition, ...run });
  expect(result.schedule).toBe(run.schedule);
  expect(result.violations.map((v) => [v.kind, v.step])).toEqual(expected);
});
