// What a handler answers: a Decision, built by the helpers allow, deny,
// ask, context, rewrite, halt, followup and none. The gateway merges every
// subscriber's decision (deny over ask over allow; contexts joined) and
// renders the agent's own reply.

const PERMISSIONS = {
  allow: 'PERMISSION_ALLOW',
  ask: 'PERMISSION_ASK',
  deny: 'PERMISSION_DENY',
};

/** A subscriber's answer; every part is optional (`none()` is no opinion). */
export class Decision {
  constructor(parts = {}) {
    const { permission, reason = '', agentMessage = '', context = '', updatedInput, halt = false, followup = '' } = parts;
    if (permission !== undefined && !(permission in PERMISSIONS)) {
      throw new TypeError(`permission must be allow, ask, deny or undefined, not ${JSON.stringify(permission)}`);
    }
    if (updatedInput !== undefined && (updatedInput === null || typeof updatedInput !== 'object' || Array.isArray(updatedInput))) {
      throw new TypeError('updatedInput must be an object (the tool\'s whole input)');
    }
    this.permission = permission;
    this.reason = reason;
    this.agentMessage = agentMessage;
    this.context = context;
    this.updatedInput = updatedInput;
    this.halt = halt;
    this.followup = followup;
    Object.freeze(this);
  }

  /** The same decision, with `text` as context for the model. */
  withContext(text) {
    return new Decision({ ...this, context: text });
  }

  /** The same decision, telling the model `text`. */
  withAgentMessage(text) {
    return new Decision({ ...this, agentMessage: text });
  }

  /** The `hookgate.v1.Decision` message sent to the gateway. */
  toProto() {
    return {
      permission: this.permission ? PERMISSIONS[this.permission] : 'PERMISSION_UNSPECIFIED',
      reason: this.reason,
      agent_message: this.agentMessage,
      additional_context: this.context,
      updated_input_json: this.updatedInput === undefined ? '' : JSON.stringify(this.updatedInput),
      halt: this.halt,
      followup_message: this.followup,
    };
  }
}

/** Let the tool call run (for agents that can skip their own prompt). */
export const allow = (reason = '') => new Decision({ permission: 'allow', reason });
/** Refuse the tool call (or prompt); `reason` is shown. */
export const deny = (reason, agentMessage = '') => new Decision({ permission: 'deny', reason, agentMessage });
/** Ask the user (an agent that cannot ask denies instead). */
export const ask = (reason) => new Decision({ permission: 'ask', reason });
/** Give the model extra context. */
export const context = (text) => new Decision({ context: text });
/** Run the tool with `input` instead (its whole input, in the agent's shape). */
export const rewrite = (input) => new Decision({ updatedInput: input });
/** Stop the agent's loop, with `reason`. */
export const halt = (reason) => new Decision({ halt: true, reason });
/** Keep the agent going with `text` as the next prompt (stop events). */
export const followup = (text) => new Decision({ followup: text });
/** No opinion. */
export const none = () => new Decision();
