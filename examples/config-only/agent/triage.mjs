// The agent under test: reads the case from stdin ({"case": {...}, "params": {...}}) and prints
// {"intent": ..., "reply": ...} as JSON. Rule-based, so the example runs offline; a real agent
// would call a model here, in any language: evalgate only sees a process, its stdin and stdout.
import { readFileSync } from 'node:fs';

const { case: ticket, params } = JSON.parse(readFileSync(0, 'utf8'));
const question = String(ticket.question).toLowerCase();

const RULES = [
  {
    intent: 'refund',
    words: ['refund', 'money back'],
    reply: 'You can get a refund within 30 days of delivery.',
  },
  {
    intent: 'account',
    words: ['password', 'log in'],
    reply: 'Use "Forgot password" and we will email you a reset link.',
  },
  {
    intent: 'billing',
    words: ['cancel', 'subscription', 'invoice'],
    reply: 'You can cancel at any time from the billing page.',
  },
  {
    intent: 'shipping',
    words: ['order', 'parcel', 'delivery'],
    reply: 'Your tracking link is in the confirmation email.',
  },
];

const rule = RULES.find((r) => r.words.some((w) => question.includes(w)));
const reply = rule ? rule.reply : 'Sorry, I cannot help with that.';
const style = params.style === 'warm' ? `Thanks for reaching out! ${reply}` : reply;
process.stdout.write(JSON.stringify({ intent: rule ? rule.intent : 'other', reply: style }) + '\n');
