export async function createStaffUser(..._a: unknown[]): Promise<{id:number;email:string;user_type:string}> { throw new Error('x'); }
