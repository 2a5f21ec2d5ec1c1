import { defineComponent, ref } from 'vue';
import { usePlingAction, usePlingRecords, usePlingState } from 'pling-declare/vue';

interface Todo { id: string; text: string; done: boolean }

export default defineComponent({
  setup() {
    const todos = ref<Todo[]>([]);
    const locked = ref(false);
    // Declared on mount, removed on unmount; refs and getters are read when Pling asks.
    usePlingRecords({ type: 'task', list: todos, label: (t) => t.text, fields: (t) => ({ done: t.done }) });
    usePlingState({ key: 'open_count', description: 'Tasks not done yet', value: () => todos.value.filter((t) => !t.done).length });
    usePlingAction(() => ({                    // a getter: `available` follows `locked`
      id: 'add_todo', description: 'Add a task', risk: 'write',
      params: { type: 'object', properties: { text: { type: 'string', minLength: 1 } }, required: ['text'] },
      available: locked.value ? 'The list is locked' : true,
      run: ({ text }) => { todos.value.push({ id: crypto.randomUUID(), text, done: false }); },
      expect: { description: 'The task is in the list', check: ({ text }) => todos.value.some((t) => t.text === text) },
    }));
    return { todos, locked };
  },
  template: '<ul><li v-for="t in todos" :key="t.id">{{ t.text }}</li></ul>',
});
