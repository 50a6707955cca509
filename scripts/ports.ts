// Ports and addresses of the local stack, one place for `npm start`, the e2e tests and benches.
export interface StackPorts {
  web: number
  api: number
  auth: number
}

export function stackPorts(env: NodeJS.ProcessEnv = process.env): StackPorts {
  return {
    web: Number(env.WEB_PORT ?? 3000),
    api: Number(env.API_PORT ?? 8080),
    auth: Number(env.AUTH_EMULATOR_PORT ?? 9099),
  }
}

/** The Firebase project id of the Auth emulator: `demo-` ids never reach a real project. */
export const DEMO_FIREBASE_PROJECT_ID = 'demo-comfy-registry'
