# tilework shell integration for bash: marks each prompt, command line,
# output and exit status with OSC 133, so tilework knows where commands
# begin and end. In ~/.bashrc, after PS1 is set:
#   eval "$(tilework shell-integration bash)"
if [[ $- == *i* && -z ${__tilework_si-} ]]; then
    __tilework_si=1
    __tilework_ran=
    __tilework_precmd() {
        local status=$?
        if [[ -n $__tilework_ran ]]; then
            printf '\e]133;D;%s\a' "$status"
            __tilework_ran=
        fi
        # A prompt set anew (by a theme, each time) is marked again.
        if [[ $PS1 != *'133;A'* ]]; then
            PS1='\[\e]133;A\a\]'"$PS1"'\[\e]133;B\a\]'
        fi
        return $status
    }
    # PS0 is printed when a command line is accepted: its output starts.
    # The arithmetic notes, in this shell, that a command ran.
    PS0+='\[\e]133;C\a\]${__tilework_none:$((__tilework_ran=1)):0}'
    PROMPT_COMMAND="__tilework_precmd${PROMPT_COMMAND:+;$PROMPT_COMMAND}"
fi
